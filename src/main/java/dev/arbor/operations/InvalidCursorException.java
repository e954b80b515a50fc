package dev.arbor.operations;

import dev.arbor.storage.InvalidRequestParameterException;

/** A paging cursor that this API did not hand out, or that no longer names a place in the list. */
public class InvalidCursorException extends InvalidRequestParameterException {

	public InvalidCursorException(String parameter, String message) {
		super(parameter, message);
	}

}
