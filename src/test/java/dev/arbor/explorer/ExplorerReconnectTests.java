package dev.arbor.explorer;

import java.nio.file.Path;
import java.time.Duration;

import dev.arbor.web.RestartedApp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The explorer's event stream across restarts of Arbor: the page shows that it lost the stream and gets it back by
 * itself. Back with the last event it saw ({@code Last-Event-ID}), it is told that what it missed went with the old
 * process ({@code resync}); back before it had seen any event, it cannot say what it missed. Either way it reads the
 * session again and shows what was appended while it was away.
 */
@RequiresBrowser
class ExplorerReconnectTests {

	@TempDir
	Path storage;

	@RegisterExtension
	static final BrowserSession browser = new BrowserSession();

	@Test
	void theOpenPageShouldReconnectAfterRestartsAndShowWhatWasAppendedMeanwhile() {
		ChromeDriver driver = browser.driver();
		String sessionId;
		int port;
		try (RestartedApp first = RestartedApp.start("arbor.storage.dir=" + this.storage)) {
			port = first.port();
			ExplorerApi api = new ExplorerApi(port);
			sessionId = api.create("Across restarts", "/home/me/restart");
			api.appendUsers(sessionId, "Before the restarts");
			driver.get("http://localhost:" + port + "/#/sessions/" + sessionId);
			waitFor(driver, By.cssSelector("#live-state[data-state='live']"));
			waitFor(driver, By.cssSelector(".rows .row.leaf"));
		}
		try (RestartedApp second = restart(driver, port)) {
			ExplorerApi api = new ExplorerApi(port);
			waitForLeaf(driver, api.appendUsers(sessionId, "While the page had seen no event").get(0));
			waitFor(driver, By.cssSelector("#live-state[data-state='live']"));
			// seen live: the page now has an event id to come back with
			waitForLeaf(driver, api.appendUsers(sessionId, "Seen live").get(0));
		}
		try (RestartedApp third = restart(driver, port)) {
			waitForLeaf(driver, new ExplorerApi(port).appendUsers(sessionId, "After the second restart").get(0));
			waitFor(driver, By.cssSelector("#live-state[data-state='live']"));
			assertThat(driver.findElement(By.cssSelector(".session-meta")).getText()).contains("4 entries");
		}
	}

	/** Arbor again on the same port and files, once the page has seen its stream go. */
	private RestartedApp restart(ChromeDriver driver, int port) {
		new WebDriverWait(driver, Duration.ofSeconds(10))
			.until(ExpectedConditions.not(ExpectedConditions.attributeToBe(By.id("live-state"), "data-state", "live")));
		return RestartedApp.start("arbor.storage.dir=" + this.storage, "server.port=" + port);
	}

	private static void waitForLeaf(ChromeDriver driver, String entryId) {
		new WebDriverWait(driver, Duration.ofSeconds(20)).until(ExpectedConditions
			.presenceOfElementLocated(By.cssSelector(".rows .row.leaf[data-entry-id='" + entryId + "']")));
	}

	private static void waitFor(ChromeDriver driver, By locator) {
		new WebDriverWait(driver, Duration.ofSeconds(10)).until(ExpectedConditions.presenceOfElementLocated(locator));
	}

}
