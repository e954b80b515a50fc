package dev.arbor.copy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** The copy command's own options, and what it says without starting when they are wrong. */
@ExtendWith(OutputCaptureExtension.class)
class CopyArgumentsTests {

	@Test
	void toSpringArgumentsShouldSpellTheOptionsAsCopyPropertiesAndKeepTheSettings() {
		assertThat(CopyArguments.toSpringArguments("--from=file", "--to=postgres", "--skip-malformed-lines",
				"--arbor.storage.dir=/srv/sessions", "--spring.datasource.url=jdbc:postgresql://db/arbor"))
			.containsExactly("--arbor.copy.skip-malformed-lines=true", "--arbor.storage.dir=/srv/sessions",
					"--spring.datasource.url=jdbc:postgresql://db/arbor", "--arbor.copy.from=file",
					"--arbor.copy.to=postgres");
	}

	@Test
	void toSpringArgumentsWhenAStoreIsMissingShouldSaySo() {
		assertThatIllegalArgumentException().isThrownBy(() -> CopyArguments.toSpringArguments("--from=file"))
			.withMessage("Say where to copy from and to: --from and --to");
	}

	@Test
	void toSpringArgumentsWhenBothStoresAreTheSameShouldSaySo() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> CopyArguments.toSpringArguments("--from=postgres", "--to=postgres"))
			.withMessage("--from and --to are both postgres");
	}

	@Test
	void toSpringArgumentsWhenAStoreIsUnknownShouldNameTheKnownOnes() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> CopyArguments.toSpringArguments("--from=mysql", "--to=file"))
			.withMessage("--from must be file or postgres, not 'mysql'");
	}

	@Test
	void toSpringArgumentsWhenAnArgumentIsNoOptionShouldSaySo() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> CopyArguments.toSpringArguments("--from=file", "--to=postgres", "data/sessions"))
			.withMessage("Not an option: data/sessions");
	}

	@Test
	void toSpringArgumentsWhenACopyPropertyIsGivenItselfShouldAskForTheOption() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> CopyArguments.toSpringArguments("--arbor.copy.from=file", "--to=postgres"))
			.withMessageStartingWith("Say --arbor.copy.from=file with --from");
	}

	@Test
	void runWithWrongArgumentsShouldPrintTheUsageAndExitWithoutStarting(CapturedOutput output) {
		assertThat(CopyCommand.run("--from=file")).isEqualTo(CopyCommand.EXIT_NOT_RUN);
		assertThat(output.getErr()).contains("Say where to copy from and to", "Usage: java -jar arbor.jar copy");
		assertThat(output.getOut()).isEmpty();
	}

	@Test
	void runWithHelpShouldPrintTheUsage(CapturedOutput output) {
		assertThat(CopyCommand.run("--help")).isEqualTo(CopyCommand.EXIT_DONE);
		assertThat(output.getOut()).startsWith("Usage: java -jar arbor.jar copy --from=file --to=postgres");
	}

}
