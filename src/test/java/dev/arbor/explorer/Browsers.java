package dev.arbor.explorer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * The Chromium that browser tests drive, and the chromedriver that matches it (the two must be of one version):
 * <ul>
 * <li>the browser binary that {@code ARBOR_TEST_CHROMIUM} names, else Debian's {@code /usr/bin/chromium};</li>
 * <li>the chromedriver that {@code ARBOR_TEST_CHROMEDRIVER} names, else Debian's {@code /usr/bin/chromedriver}
 * (package {@code chromium-driver}): what {@code .ci/run} installs ({@code scripts/ci-chromium.sh});</li>
 * <li>without either the tests are skipped ({@link RequiresBrowser}), unless {@code ARBOR_REQUIRE_BROWSER=true}
 * (set by {@code .ci/run}), which fails them instead.</li>
 * </ul>
 * Both paths are always handed to Selenium: given them, it never runs Selenium Manager, which would otherwise try to
 * download a browser or a driver from the internet.
 */
public final class Browsers {

	public static final String CHROMIUM_VARIABLE = "ARBOR_TEST_CHROMIUM";

	public static final String CHROMEDRIVER_VARIABLE = "ARBOR_TEST_CHROMEDRIVER";

	public static final String REQUIRED_VARIABLE = "ARBOR_REQUIRE_BROWSER";

	/**
	 * What this machine needs (no sandbox: CI runs as root; no GPU; no calls home, no updates, no sync), a window the
	 * explorer has room in, and {@code /tmp} rather than {@code /dev/shm}, which containers keep small.
	 */
	private static final String[] ARGUMENTS = { "--headless=new", "--no-sandbox", "--disable-gpu",
			"--disable-background-networking", "--disable-component-update", "--disable-sync", "--window-size=1400,900",
			"--disable-dev-shm-usage" };

	private Browsers() {
	}

	/** A headless Chromium of its own, with a fresh profile that {@link ChromeDriver#quit()} deletes. */
	public static ChromeDriver start() {
		String unavailable = unavailable();
		if (unavailable != null) {
			throw new IllegalStateException(unavailable);
		}
		Path profile;
		try {
			profile = Files.createTempDirectory("arbor-chromium-");
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not create a profile directory for Chromium", ex);
		}
		ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(chromedriver().toFile())
			.usingAnyFreePort()
			.build();
		ChromeOptions options = new ChromeOptions();
		options.setBinary(chromium().toFile());
		options.addArguments(ARGUMENTS);
		options.addArguments("--user-data-dir=" + profile);
		// The page's console, for LogType.BROWSER (BrowserSession keeps it for failed tests).
		options.setCapability("goog:loggingPrefs", Map.of("browser", "ALL"));
		try {
			return new ProfiledChromeDriver(service, options, profile);
		}
		catch (RuntimeException ex) {
			delete(profile);
			throw ex;
		}
	}

	/** The browser binary: {@code ARBOR_TEST_CHROMIUM}, else {@code /usr/bin/chromium}. */
	public static Path chromium() {
		return Path.of(variable(CHROMIUM_VARIABLE, "/usr/bin/chromium"));
	}

	/** The driver: {@code ARBOR_TEST_CHROMEDRIVER}, else {@code /usr/bin/chromedriver}. */
	public static Path chromedriver() {
		return Path.of(variable(CHROMEDRIVER_VARIABLE, "/usr/bin/chromedriver"));
	}

	/** Why there is no browser to test in, or {@code null} when there is one. */
	static @Nullable String unavailable() {
		String chromium = missing(chromium(), CHROMIUM_VARIABLE, "Chromium", "chromium");
		String chromedriver = missing(chromedriver(), CHROMEDRIVER_VARIABLE, "chromedriver", "chromium-driver");
		if (chromium != null && chromedriver != null) {
			return chromium + "; " + chromedriver;
		}
		return (chromium != null) ? chromium : chromedriver;
	}

	static boolean required() {
		return "true".equalsIgnoreCase(System.getenv(REQUIRED_VARIABLE));
	}

	private static @Nullable String missing(Path path, String variable, String what, String debianPackage) {
		if (Files.isRegularFile(path) && Files.isExecutable(path)) {
			return null;
		}
		String problem = Files.exists(path) ? "which is not an executable file" : "which does not exist";
		if (isSet(variable)) {
			return "No " + what + " to test with: " + variable + " names " + path + ", " + problem;
		}
		return "No " + what + " to test with: " + path + ", " + problem + " (install Debian's " + debianPackage
				+ " or set " + variable + ")";
	}

	private static String variable(String name, String otherwise) {
		return isSet(name) ? System.getenv(name) : otherwise;
	}

	private static boolean isSet(String variable) {
		String value = System.getenv(variable);
		return value != null && !value.isBlank();
	}

	/** Best effort: a file the browser still holds stays, in the system's temporary directory. */
	private static void delete(Path directory) {
		try (Stream<Path> paths = Files.walk(directory)) {
			paths.sorted(Comparator.reverseOrder()).forEach((path) -> path.toFile().delete());
		}
		catch (IOException | UncheckedIOException ex) {
			// already gone, or unreadable: left for the system's cleanup of /tmp
		}
	}

	/** A ChromeDriver that deletes its profile directory once the browser is gone. */
	private static final class ProfiledChromeDriver extends ChromeDriver {

		private final Path profile;

		ProfiledChromeDriver(ChromeDriverService service, ChromeOptions options, Path profile) {
			super(service, options);
			this.profile = profile;
		}

		@Override
		public void quit() {
			try {
				super.quit();
			}
			finally {
				delete(this.profile);
			}
		}

	}

}
