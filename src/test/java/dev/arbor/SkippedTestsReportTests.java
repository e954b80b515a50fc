package dev.arbor;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.junit.platform.launcher.core.LauncherConfig;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

class SkippedTestsReportTests {

	@Test
	void aRunShouldEndWithEveryTestThatDidNotRunByNameAndReason() {
		String report = run(Sample.class);
		assertThat(report).contains("Skipped tests (2):")
			.contains("dev.arbor.SkippedTestsReportTests$Sample.needsTheSamples: no shared/fixtures here")
			.contains("dev.arbor.SkippedTestsReportTests$Sample.disabled: not on this machine")
			.doesNotContain("runs");
	}

	@Test
	void aClassSkippedAsAWholeShouldBeNamedOnce() {
		assertThat(run(SkippedClass.class)).contains("Skipped tests (1):")
			.contains("dev.arbor.SkippedTestsReportTests$SkippedClass: no PostgreSQL")
			.doesNotContain(".first")
			.doesNotContain(".second");
	}

	@Test
	void aRunWhereEverythingRanShouldReportNothing() {
		assertThat(run(AllRun.class)).isEmpty();
	}

	/** Runs the class in a launcher of its own, with only the report listening, and answers what it printed. */
	private static String run(Class<?> type) {
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
		LauncherFactory.create(LauncherConfig.builder().enableTestExecutionListenerAutoRegistration(false).build())
			.execute(LauncherDiscoveryRequestBuilder.request().selectors(selectClass(type)).build(),
					new SkippedTestsReport(out));
		return bytes.toString(StandardCharsets.UTF_8);
	}

	// Not nested: Surefire leaves classes with a $ in their name out, so these run only where the tests above run them.

	static class Sample {

		@Test
		void runs() {
		}

		@Test
		void needsTheSamples() {
			Assumptions.assumeTrue(false, "no shared/fixtures here");
		}

		@Test
		@Disabled("not on this machine")
		void disabled() {
		}

	}

	@Disabled("no PostgreSQL")
	static class SkippedClass {

		@Test
		void first() {
		}

		@Test
		void second() {
		}

	}

	static class AllRun {

		@Test
		void runs() {
		}

	}

}
