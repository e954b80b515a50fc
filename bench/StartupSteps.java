import java.util.Comparator;
import java.util.List;
import java.util.stream.StreamSupport;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.metrics.buffering.BufferingApplicationStartup;
import org.springframework.boot.context.metrics.buffering.StartupTimeline.TimelineEvent;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Where Arbor's start goes, by Boot's own steps (what {@code /actuator/startup} would show,
 * docs/BENCHMARKS.md#where-start-up-goes): starts Arbor with a {@link BufferingApplicationStartup}, prints the
 * top-level phases and the longest steps (40, or -Dsteps=N), inclusive of their children, then stops. Run on the
 * extracted jar, with Arbor's own arguments after it:
 *
 * <pre>
 * java -Djarmode=tools -jar target/arbor-*.jar extract --force --destination app --application-filename arbor.jar
 * java -Xmx320m -cp app/arbor.jar bench/StartupSteps.java --arbor.storage.dir=/tmp/empty --server.port=0
 * </pre>
 */
public class StartupSteps {

	public static void main(String[] args) throws Exception {
		SpringApplication application = new SpringApplication(dev.arbor.ArborApplication.class);
		BufferingApplicationStartup startup = new BufferingApplicationStartup(100_000);
		application.setApplicationStartup(startup);
		long start = System.nanoTime();
		try (ConfigurableApplicationContext context = application.run(args)) {
			System.out.printf("run: %d ms%n", (System.nanoTime() - start) / 1_000_000);
			List<TimelineEvent> events = startup.getBufferedTimeline().getEvents();
			events.stream()
				.filter(event -> event.getStartupStep().getParentId() == null)
				.forEach(event -> System.out.printf("%7d ms  %s%n", event.getDuration().toMillis(), describe(event)));
			System.out.println();
			events.stream()
				.sorted(Comparator.comparing(TimelineEvent::getDuration).reversed())
				.limit(Integer.getInteger("steps", 40))
				.forEach(event -> System.out.printf("%7d ms  %s%n", event.getDuration().toMillis(), describe(event)));
		}
	}

	private static String describe(TimelineEvent event) {
		StringBuilder text = new StringBuilder(event.getStartupStep().getName());
		StreamSupport.stream(event.getStartupStep().getTags().spliterator(), false)
			.forEach(tag -> text.append(' ').append(tag.getKey()).append('=').append(tag.getValue()));
		return text.toString();
	}

}
