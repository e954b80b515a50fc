import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.URI;

/**
 * The image's HEALTHCHECK: exits 0 when Arbor's readiness endpoint answers 200, 1 otherwise (503 while not ready, or
 * no answer). It needs nothing but the JRE of the runtime image, which has no curl or wget; {@code java.base} only, so
 * a trimmed JRE runs it too. Compiled in the image's build stage, not part of the application.
 *
 * <p>The URL is the first argument, else {@code http://127.0.0.1:$SERVER_PORT/actuator/health/readiness}.
 */
public final class HealthCheck {

	private HealthCheck() {
	}

	public static void main(String[] args) {
		String url = args.length > 0 ? args[0]
				: "http://127.0.0.1:" + System.getenv().getOrDefault("SERVER_PORT", "8080") + "/actuator/health/readiness";
		try {
			HttpURLConnection connection = (HttpURLConnection) URI.create(url).toURL().openConnection();
			connection.setConnectTimeout(2_000);
			connection.setReadTimeout(3_000);
			int status = connection.getResponseCode();
			System.out.println(url + " " + status);
			System.exit(status == 200 ? 0 : 1);
		}
		catch (IOException | RuntimeException ex) {
			System.out.println(url + " " + ex);
			System.exit(1);
		}
	}

}
