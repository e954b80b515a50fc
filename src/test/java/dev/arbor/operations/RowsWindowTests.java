package dev.arbor.operations;

import dev.arbor.operations.RowsWindow.Anchor;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** A window says one place: an entry id or an offset only for the anchors that take one. */
class RowsWindowTests {

	@Test
	void atShouldCarryTheOffsetAndNoEntryId() {
		RowsWindow window = RowsWindow.at(50, 399_950);
		assertThat(window.anchor()).isEqualTo(Anchor.OFFSET);
		assertThat(window.offset()).isEqualTo(399_950);
		assertThat(window.entryId()).isNull();
		assertThat(RowsWindow.at(50, 0).offset()).isZero();
	}

	@Test
	void constructorWhenOffsetIsNegativeOrOnAnotherAnchorShouldFail() {
		assertThatIllegalArgumentException().isThrownBy(() -> RowsWindow.at(50, -1));
		assertThatIllegalArgumentException().isThrownBy(() -> new RowsWindow(50, Anchor.START, null, 3));
		assertThatIllegalArgumentException().isThrownBy(() -> new RowsWindow(50, Anchor.AFTER, "a1", 3));
		assertThatIllegalArgumentException().isThrownBy(() -> new RowsWindow(50, Anchor.OFFSET, "a1", 3));
		assertThatIllegalArgumentException().isThrownBy(() -> RowsWindow.at(0, 3));
	}

}
