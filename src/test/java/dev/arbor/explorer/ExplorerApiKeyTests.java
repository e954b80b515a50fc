package dev.arbor.explorer;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.test.context.TestPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The explorer where API keys are on: the page loads without one, asks for a key once, keeps it for the tab only,
 * and follows the event streams with it ({@code access_token}).
 */
@TestPropertySource(properties = "arbor.security.api-keys=" + ExplorerApiKeyTests.KEY)
class ExplorerApiKeyTests extends AbstractBrowserTests {

	static final String KEY = "the-right-key";

	@Override
	String apiKey() {
		return KEY;
	}

	@Test
	void thePageShouldAskForAKeyOnceAndUseItForRequestsAndEventStreams() {
		String sessionId = this.api.create("Behind a key", "/home/me/keys");
		open("/");

		enterKey("a-wrong-key");
		WebElement again = waitFor(By.cssSelector("dialog.modal[open]"));
		waitUntil(() -> again.getText().contains("That key was not accepted"));
		enterKey(KEY);
		waitFor(By.cssSelector("li.session[data-session-id='" + sessionId + "']"));
		waitFor(By.cssSelector("#live-state[data-state='live']"));
		assertThat(this.driver.executeScript("return sessionStorage.getItem('arbor.apiKey')")).isEqualTo(KEY);
		assertThat(this.driver.executeScript("return localStorage.length")).isEqualTo(0L);

		// a session created elsewhere arrives over the stream opened with the key
		String created = this.api.create("Made while watching", "/home/me/keys");
		waitFor(By.cssSelector("li.session[data-session-id='" + created + "']"));

		// the key is kept for the tab: a reload asks for nothing
		this.driver.navigate().refresh();
		waitFor(By.cssSelector("li.session[data-session-id='" + created + "']"));
		assertThat(this.driver.findElements(By.cssSelector("dialog.modal[open]"))).isEmpty();

		click(By.id("forget-key"));
		waitFor(By.cssSelector("dialog.modal[open] input[name=key]"));
		assertThat(this.driver.executeScript("return sessionStorage.getItem('arbor.apiKey')")).isNull();
	}

	private void enterKey(String key) {
		WebElement input = waitFor(By.cssSelector("dialog.modal[open] input[name=key]"));
		input.sendKeys(key);
		click(By.cssSelector("dialog.modal[open] button[type=submit]"));
		new WebDriverWait(this.driver, Duration.ofSeconds(10)).until(ExpectedConditions.stalenessOf(input));
	}

}
