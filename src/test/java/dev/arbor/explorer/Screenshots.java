package dev.arbor.explorer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;

/**
 * What the browser showed, as PNG files under {@code target/screenshots/} (relative to the working directory, which
 * Surefire sets to the project's): where CI keeps them, beside the test reports, to see why a browser test failed.
 */
public final class Screenshots {

	/** The directory screenshots and the console logs of failed tests are written to. */
	public static final Path DIRECTORY = Path.of("target", "screenshots");

	private Screenshots() {
	}

	/** Writes {@code target/screenshots/<name>.png} (replacing one of that name) and returns its path. */
	public static Path save(WebDriver driver, String name) {
		byte[] png = ((TakesScreenshot) driver).getScreenshotAs(OutputType.BYTES);
		try {
			Files.createDirectories(DIRECTORY);
			return Files.write(DIRECTORY.resolve(name + ".png"), png);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not write the screenshot " + name, ex);
		}
	}

}
