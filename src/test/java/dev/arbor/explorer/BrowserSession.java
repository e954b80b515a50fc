package dev.arbor.explorer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;

/**
 * One browser ({@link Browsers#start()}) for the tests of a class, quit after the last, and what a failed test leaves
 * behind to be understood from CI's artifacts: {@code target/screenshots/<Class>.<method>.png}, the page as it was
 * when the test failed, and {@code <Class>.<method>.console.log}, what the page wrote to its console during the
 * test. Registered on a static field beside {@link RequiresBrowser}, which keeps it from starting where there is no
 * browser:
 *
 * <pre>
 * &#64;RegisterExtension
 * static final BrowserSession browser = new BrowserSession();
 * </pre>
 *
 * The tests of a class share the browser, and with it cookies and local storage; each starts on the page the last
 * one left.
 */
public final class BrowserSession implements BeforeAllCallback, BeforeEachCallback, TestWatcher, AfterAllCallback {

	private @Nullable ChromeDriver driver;

	/** The console entries of the running test that were taken from the browser already (which forgets them). */
	private final List<LogEntry> console = new ArrayList<>();

	/** The browser, from before the class's first test to after its last. */
	public ChromeDriver driver() {
		ChromeDriver started = this.driver;
		if (started == null) {
			throw new IllegalStateException("No browser outside the tests of the class that registers the session");
		}
		return started;
	}

	/**
	 * What the page wrote to its console (and the browser's own errors, such as failed requests) since the running
	 * test began, oldest first.
	 */
	public synchronized List<LogEntry> console() {
		this.console.addAll(driver().manage().logs().get(LogType.BROWSER).getAll());
		return List.copyOf(this.console);
	}

	@Override
	public void beforeAll(ExtensionContext context) {
		this.driver = Browsers.start();
	}

	@Override
	public synchronized void beforeEach(ExtensionContext context) {
		console();
		this.console.clear();
	}

	@Override
	public void testFailed(ExtensionContext context, @Nullable Throwable cause) {
		ChromeDriver failed = this.driver;
		if (failed == null) {
			return;
		}
		String name = name(context);
		try {
			Screenshots.save(failed, name);
		}
		catch (RuntimeException ex) {
			cause(cause, ex);
		}
		try {
			String lines = console().stream().map((entry) -> line(entry) + "\n").collect(Collectors.joining());
			Files.createDirectories(Screenshots.DIRECTORY);
			Files.writeString(Screenshots.DIRECTORY.resolve(name + ".console.log"), lines);
		}
		catch (IOException ex) {
			cause(cause, new UncheckedIOException(ex));
		}
		catch (RuntimeException ex) {
			cause(cause, ex);
		}
	}

	@Override
	public void afterAll(ExtensionContext context) {
		WebDriver started = this.driver;
		this.driver = null;
		if (started != null) {
			started.quit();
		}
	}

	/** {@code <Class>.<method>}, and the invocation's display name where one method runs several times. */
	private static String name(ExtensionContext context) {
		String method = context.getRequiredTestMethod().getName();
		String name = context.getRequiredTestClass().getSimpleName() + "." + method;
		if (!context.getDisplayName().equals(method + "()")) {
			name += "-" + context.getDisplayName().replaceAll("[^A-Za-z0-9._-]+", "_").replaceAll("^_|_$", "");
		}
		return name;
	}

	private static String line(LogEntry entry) {
		return Instant.ofEpochMilli(entry.getTimestamp()) + " " + entry.getLevel() + " " + entry.getMessage();
	}

	/** What went wrong while keeping the evidence is told with the test's failure, not instead of it. */
	private static void cause(@Nullable Throwable cause, RuntimeException ex) {
		if (cause != null) {
			cause.addSuppressed(ex);
		}
	}

}
