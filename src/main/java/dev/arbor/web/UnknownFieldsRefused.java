package dev.arbor.web;

import tools.jackson.core.JsonParser;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.deser.DeserializationProblemHandler;
import tools.jackson.databind.exc.UnrecognizedPropertyException;

/**
 * Refuses a field that Arbor's own request bodies do not have (docs/API.md#requests-and-responses), so that a
 * misspelt {@code parentSesion} is a 400 naming it rather than silently dropped. Only Arbor's types: the mapper also
 * reads the answers of model providers (Spring AI), whose fields grow with every release and must stay ignored.
 * Entry drafts are JSON objects, not types, and keep every field as sent.
 */
final class UnknownFieldsRefused extends DeserializationProblemHandler {

	private static final String ARBOR = "dev.arbor.";

	@Override
	public boolean handleUnknownProperty(DeserializationContext context, JsonParser parser,
			ValueDeserializer<?> deserializer, Object beanOrClass, String propertyName) {
		Class<?> type = (beanOrClass instanceof Class<?> named) ? named : beanOrClass.getClass();
		if (type.getName().startsWith(ARBOR)) {
			throw UnrecognizedPropertyException.from(parser, beanOrClass, propertyName,
					deserializer.getKnownPropertyNames());
		}
		return false;
	}

}
