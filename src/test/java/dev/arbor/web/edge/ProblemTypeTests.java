package dev.arbor.web.edge;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Which type an error of a status gets when nothing more is known of it (Jetty's own, Spring's own). */
class ProblemTypeTests {

	@Test
	void forStatusShouldGiveATypeOfThatStatusOrOfItsClassNeverOneOfAnotherStatus() {
		for (int status = 400; status < 600; status++) {
			ProblemType type = ProblemType.forStatus(status);
			if (type == ProblemType.CLIENT_ERROR || type == ProblemType.SERVER_ERROR) {
				assertThat(type.status().value() / 100).as("%d: %s", status, type).isEqualTo(status / 100);
			}
			else {
				assertThat(type.status().value()).as("%d: %s", status, type).isEqualTo(status);
			}
		}
	}

	@Test
	void forStatusShouldGiveTheTypesOfWhatJettyAnswersItself() {
		assertThat(ProblemType.forStatus(400)).isEqualTo(ProblemType.BAD_REQUEST);
		assertThat(ProblemType.forStatus(404)).isEqualTo(ProblemType.NOT_FOUND);
		assertThat(ProblemType.forStatus(408)).isEqualTo(ProblemType.REQUEST_TIMEOUT);
		assertThat(ProblemType.forStatus(413)).isEqualTo(ProblemType.REQUEST_TOO_LARGE);
		assertThat(ProblemType.forStatus(417)).isEqualTo(ProblemType.CLIENT_ERROR);
		assertThat(ProblemType.forStatus(500)).isEqualTo(ProblemType.INTERNAL_ERROR);
		assertThat(ProblemType.forStatus(501)).isEqualTo(ProblemType.NOT_IMPLEMENTED);
		assertThat(ProblemType.forStatus(503)).isEqualTo(ProblemType.SERVER_ERROR);
		assertThat(ProblemType.forStatus(505)).isEqualTo(ProblemType.HTTP_VERSION_NOT_SUPPORTED);
	}

}
