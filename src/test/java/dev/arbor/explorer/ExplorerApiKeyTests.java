package dev.arbor.explorer;

import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
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
 * The explorer where API keys are on: the page loads without one, asks for a key once, keeps it for the tab only,
 * and follows the event streams with it ({@code access_token}).
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = "arbor.security.api-keys=the-right-key")
@RequiresBrowser
class ExplorerApiKeyTests {

	@TempDir
	static Path storage;

	@DynamicPropertySource
	static void storage(DynamicPropertyRegistry registry) {
		registry.add("arbor.storage.dir", storage::toString);
	}

	@RegisterExtension
	static final BrowserSession browser = new BrowserSession();

	@LocalServerPort
	int port;

	@Test
	void thePageShouldAskForAKeyOnceAndUseItForRequestsAndEventStreams() {
		ExplorerApi api = new ExplorerApi(this.port, "the-right-key");
		String sessionId = api.create("Behind a key", "/home/me/keys");
		ChromeDriver driver = browser.driver();
		driver.get("http://localhost:" + this.port + "/");

		enterKey(driver, "a-wrong-key");
		WebElement again = wait(driver).until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("dialog.modal[open]")));
		wait(driver).until(ExpectedConditions.textToBePresentInElement(again, "That key was not accepted"));
		enterKey(driver, "the-right-key");
		wait(driver).until(ExpectedConditions
			.presenceOfElementLocated(By.cssSelector("li.session[data-session-id='" + sessionId + "']")));
		wait(driver).until(ExpectedConditions.attributeToBe(By.id("live-state"), "data-state", "live"));
		assertThat(driver.executeScript("return sessionStorage.getItem('arbor.apiKey')")).isEqualTo("the-right-key");
		assertThat(driver.executeScript("return localStorage.length")).isEqualTo(0L);

		// a session created elsewhere arrives over the stream opened with the key
		String created = api.create("Made while watching", "/home/me/keys");
		wait(driver).until(ExpectedConditions
			.presenceOfElementLocated(By.cssSelector("li.session[data-session-id='" + created + "']")));

		// the key is kept for the tab: a reload asks for nothing
		driver.navigate().refresh();
		wait(driver).until(ExpectedConditions
			.presenceOfElementLocated(By.cssSelector("li.session[data-session-id='" + created + "']")));
		assertThat(driver.findElements(By.cssSelector("dialog.modal[open]"))).isEmpty();

		driver.findElement(By.id("forget-key")).click();
		wait(driver).until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("dialog.modal[open] input[name=key]")));
		assertThat(driver.executeScript("return sessionStorage.getItem('arbor.apiKey')")).isNull();
	}

	private static void enterKey(ChromeDriver driver, String key) {
		WebElement input = wait(driver).until(ExpectedConditions.elementToBeClickable(By.cssSelector("dialog.modal[open] input[name=key]")));
		input.sendKeys(key);
		driver.findElement(By.cssSelector("dialog.modal[open] button[type=submit]")).click();
		wait(driver).until(ExpectedConditions.stalenessOf(input));
	}

	private static WebDriverWait wait(ChromeDriver driver) {
		return new WebDriverWait(driver, Duration.ofSeconds(10));
	}

}
