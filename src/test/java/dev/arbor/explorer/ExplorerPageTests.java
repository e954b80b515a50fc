package dev.arbor.explorer;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The pages Arbor serves, in a real browser against the running application. For now Swagger UI: a page that runs
 * scripts and fetches the API document from the server, which shows that server, browser, driver and test stack work
 * end to end.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@RequiresBrowser
class ExplorerPageTests {

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
	void swaggerUiShouldListTheApisOperations() {
		browser.driver().get("http://localhost:" + this.port + "/swagger-ui/index.html");
		List<WebElement> paths = new WebDriverWait(browser.driver(), Duration.ofSeconds(10))
			.until(ExpectedConditions.presenceOfAllElementsLocatedBy(By.cssSelector(".opblock .opblock-summary-path")));
		assertThat(browser.driver().getTitle()).contains("Swagger UI");
		assertThat(paths).extracting(WebElement::getText).contains("/sessions");
	}

}
