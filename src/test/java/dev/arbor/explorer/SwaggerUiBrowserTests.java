package dev.arbor.explorer;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Swagger UI, which stays where it was beside the explorer, in a real browser: its scripts run under its own content
 * policy (the API's allows nothing, the explorer's only the explorer's files) and it lists the API's operations.
 */
class SwaggerUiBrowserTests extends AbstractBrowserTests {

	@Test
	void swaggerUiShouldListTheApisOperations() {
		open("/swagger-ui/index.html");
		waitFor(By.cssSelector(".opblock .opblock-summary-path"));
		List<WebElement> paths = this.driver.findElements(By.cssSelector(".opblock .opblock-summary-path"));
		assertThat(this.driver.getTitle()).contains("Swagger UI");
		assertThat(paths).extracting(WebElement::getText).contains("/sessions", "/sessions/{sessionId}/tree/rows");
		assertThat(browser.console()).noneMatch((entry) -> entry.getMessage().contains("Content Security Policy"));
	}

}
