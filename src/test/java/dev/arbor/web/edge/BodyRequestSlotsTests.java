package dev.arbor.web.edge;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class BodyRequestSlotsTests {

	@Test
	void tryAcquireWhenClientHoldsItsShareShouldRefuseItButAdmitOthers() {
		BodyRequestSlots slots = new BodyRequestSlots(10, 2);
		assertThat(slots.tryAcquire("a")).isEqualTo(BodyRequestSlots.Admission.ADMITTED);
		assertThat(slots.tryAcquire("a")).isEqualTo(BodyRequestSlots.Admission.ADMITTED);
		assertThat(slots.tryAcquire("a")).isEqualTo(BodyRequestSlots.Admission.CLIENT_BUSY);
		assertThat(slots.tryAcquire("b")).isEqualTo(BodyRequestSlots.Admission.ADMITTED);
		slots.release("a");
		assertThat(slots.tryAcquire("a")).isEqualTo(BodyRequestSlots.Admission.ADMITTED);
	}

	@Test
	void tryAcquireWhenAllSlotsAreHeldShouldRefuseUntilOneIsReleased() {
		BodyRequestSlots slots = new BodyRequestSlots(2, 2);
		assertThat(slots.tryAcquire("a")).isEqualTo(BodyRequestSlots.Admission.ADMITTED);
		assertThat(slots.tryAcquire("b")).isEqualTo(BodyRequestSlots.Admission.ADMITTED);
		assertThat(slots.tryAcquire("c")).isEqualTo(BodyRequestSlots.Admission.SERVER_BUSY);
		assertThat(slots.tryAcquire("a")).as("a refusal gives back the client's share").isEqualTo(
				BodyRequestSlots.Admission.SERVER_BUSY);
		slots.release("b");
		assertThat(slots.tryAcquire("c")).isEqualTo(BodyRequestSlots.Admission.ADMITTED);
	}

}
