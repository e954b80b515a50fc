package dev.arbor.explorer;

import java.nio.file.Path;
import java.time.Duration;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * What the browser tests of a page share: the application on a random port with its own storage directory, one
 * headless Chromium for the class ({@link BrowserSession}), a client of the API for what happens behind the page's
 * back ({@link ExplorerApi}), and the steps a person takes, each waiting (up to 10 s) for the page to be ready for it.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
abstract class AbstractBrowserTests {

	private static final Duration PATIENCE = Duration.ofSeconds(10);

	/** Looks again this often (Selenium's default is every 500 ms, which makes every step wait half a second). */
	private static final Duration POLLING = Duration.ofMillis(50);

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

	ExplorerApi api;

	ChromeDriver driver;

	@BeforeEach
	void connect() {
		this.api = new ExplorerApi(this.port, apiKey());
		this.driver = browser.driver();
	}

	/** The key the API client sends; none unless the application asks for one. */
	String apiKey() {
		return null;
	}

	void open(String path) {
		this.driver.get("http://localhost:" + this.port + path);
	}

	WebElement waitFor(By locator) {
		return waiting().until(ExpectedConditions.presenceOfElementLocated(locator));
	}

	void waitUntil(BooleanSupplier condition) {
		waiting().ignoring(RuntimeException.class).until((WebDriver ignored) -> condition.getAsBoolean());
	}

	/** Found and clicked in one step, again when the page drew the element anew in between (the old one is stale). */
	void click(By locator) {
		waiting().ignoring(StaleElementReferenceException.class).until((WebDriver driver) -> {
			WebElement element = ExpectedConditions.elementToBeClickable(locator).apply(driver);
			if (element == null) {
				return false;
			}
			element.click();
			return true;
		});
	}

	private WebDriverWait waiting() {
		WebDriverWait wait = new WebDriverWait(this.driver, PATIENCE);
		wait.pollingEvery(POLLING);
		return wait;
	}

	void type(By locator, String text) {
		waitFor(locator).sendKeys(text);
	}

	void clear(By locator) {
		waitFor(locator).sendKeys(Keys.chord(Keys.CONTROL, "a"), Keys.BACK_SPACE);
	}

	/** Keys sent to whatever has the focus, as a person at the keyboard sends them. */
	void keys(CharSequence... keys) {
		new Actions(this.driver).sendKeys(keys).perform();
	}

	String text(String css) {
		return this.driver.findElement(By.cssSelector(css)).getText();
	}

	static By dialogTitled(String title) {
		return By.xpath("//dialog[@open][.//h2[normalize-space()='" + title + "']]");
	}

	/** The button with this text inside the element of this class (".entry-panel"). */
	static By button(String withinClass, String text) {
		return By.xpath("//*[contains(concat(' ', @class, ' '), ' " + withinClass.substring(1)
				+ " ')]//button[normalize-space()='" + text + "']");
	}

}
