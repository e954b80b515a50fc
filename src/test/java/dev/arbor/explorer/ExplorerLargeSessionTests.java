package dev.arbor.explorer;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The explorer on a generated 400,000-entry session: its first screen of rows, timed in the browser (from the
 * page's navigation to the first rows drawn, the {@code arbor:first-rows} mark), cold (Arbor reads the file for this
 * request) and warm, and a jump to the middle of the view by its scrollbar. The figures go to
 * {@code target/explorer-timings.txt} and docs/BENCHMARKS.md; a test asserts what was shown, never how fast.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@RequiresBrowser
class ExplorerLargeSessionTests {

	static final int ENTRIES = 400_000;

	static final String SESSION_ID = "generated-400k";

	@TempDir
	static Path storage;

	@DynamicPropertySource
	static void storage(DynamicPropertyRegistry registry) {
		// the supplier runs whenever the property is read: the file is written the first time only
		registry.add("arbor.storage.dir", () -> {
			Path file = storage.resolve(SESSION_ID + ".jsonl");
			if (!Files.exists(file)) {
				generate(file, ENTRIES);
			}
			return storage.toString();
		});
	}

	@RegisterExtension
	static final BrowserSession browser = new BrowserSession();

	@LocalServerPort
	int port;

	@Test
	void theFirstScreenShouldShowTheLeafAndTheScrollbarShouldReachAnyRow() throws IOException {
		ChromeDriver driver = browser.driver();
		String url = "http://localhost:" + this.port + "/#/sessions/" + SESSION_ID;
		driver.get(url);
		String leaf = String.format("%08x", id(ENTRIES - 1));
		new WebDriverWait(driver, Duration.ofSeconds(60)).until(ExpectedConditions
			.presenceOfElementLocated(By.cssSelector(".rows .row.leaf[data-entry-id='" + leaf + "']")));
		double cold = firstRows(driver);
		String coldCalls = calls(driver);
		Screenshots.save(driver, "explorer-large-session");

		driver.navigate().refresh();
		new WebDriverWait(driver, Duration.ofSeconds(30)).until(ExpectedConditions
			.presenceOfElementLocated(By.cssSelector(".rows .row.leaf[data-entry-id='" + leaf + "']")));
		double warm = firstRows(driver);

		long start = System.nanoTime();
		((JavascriptExecutor) driver).executeScript(
				"const rows = document.querySelector('.rows'); rows.scrollTop = rows.scrollHeight / 2;");
		// polled every 10 ms rather than every 500 ms, so that the time measured says how long it took
		new WebDriverWait(driver, Duration.ofSeconds(10)).pollingEvery(Duration.ofMillis(10))
			.until(ExpectedConditions
				.presenceOfElementLocated(By.cssSelector(".rows .row[data-index='" + (ENTRIES / 2) + "']")));
		long jump = (System.nanoTime() - start) / 1_000_000;
		assertThat(driver.findElement(By.cssSelector(".rows .row[data-index='" + (ENTRIES / 2) + "']"))
			.getAttribute("data-entry-id")).isEqualTo(String.format("%08x", id(ENTRIES / 2)));
		assertThat(driver.findElement(By.cssSelector(".tree-status")).getText()).contains("400,000");

		String timings = String.format(
				"400,000-entry session: first screen of rows %.0f ms cold (Arbor reads the file; %s), %.0f ms warm; "
						+ "scrollbar to the middle, rows drawn in %d ms%n", cold, coldCalls, warm, jump);
		Files.writeString(Path.of("target", "explorer-timings.txt"), timings);
		System.out.print("explorer: " + timings);
	}

	/** Milliseconds from the page's navigation to its first rows drawn. */
	private static double firstRows(ChromeDriver driver) {
		Object mark = driver.executeScript(
				"const marks = performance.getEntriesByName('arbor:first-rows'); return marks.length ? marks[0].startTime : null;");
		assertThat(mark).isNotNull();
		return ((Number) mark).doubleValue();
	}

	/** When the page asked for the session and its first rows, and how long each took (Resource Timing). */
	private static String calls(ChromeDriver driver) {
		return String.valueOf(driver.executeScript("""
				return performance.getEntriesByType('resource')
					.filter((call) => /\\/sessions\\/[^/]+(\\/tree\\/rows.*)?$/.test(new URL(call.name).pathname + new URL(call.name).search))
					.map((call) => `${new URL(call.name).pathname.endsWith('/rows') ? 'rows' : 'session'} from ${call.startTime.toFixed(0)} ms for ${call.duration.toFixed(0)} ms`)
					.join(', ');
				"""));
	}

	/** Entry {@code i}'s id: an odd multiplier makes the ids distinct (as the benchmarks' generated sessions). */
	private static int id(int i) {
		return (i + 1) * 0x9E3779B1;
	}

	/** One chain of alternating user and assistant messages, about 300 bytes each, as the benchmark session. */
	private static void generate(Path file, int entries) {
		Instant start = Instant.parse("2026-01-01T00:00:00Z");
		try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
			out.write("{\"type\":\"session\",\"version\":3,\"id\":\"" + SESSION_ID + "\",\"timestamp\":\"" + start
					+ "\",\"cwd\":\"/home/me/generated\"}\n");
			String parent = null;
			for (int i = 0; i < entries; i++) {
				String id = String.format("%08x", id(i));
				String timestamp = start.plusSeconds(i).toString();
				String message = (i % 2 == 0)
						? "{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"Question " + i
								+ ": make the config loader read the environment\"}]}"
						: "{\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"Answer " + i
								+ ": done, src/config.ts reads ARBOR_* now\"}],\"provider\":\"anthropic\",\"model\":\"claude-sonnet-4-5\"}";
				out.write("{\"type\":\"message\",\"id\":\"" + id + "\",\"parentId\":"
						+ ((parent != null) ? "\"" + parent + "\"" : "null") + ",\"timestamp\":\"" + timestamp
						+ "\",\"message\":" + message + "}\n");
				parent = id;
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
