package dev.arbor.web;

import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.swagger.v3.core.converter.AnnotatedType;
import io.swagger.v3.core.converter.ModelConverter;
import io.swagger.v3.core.converter.ModelConverterContext;
import io.swagger.v3.core.util.Json;
import io.swagger.v3.oas.models.media.Schema;
import jakarta.validation.constraints.NotNull;
import org.jspecify.annotations.Nullable;

/**
 * The schemas of the API's records, completed from the Java types so that typed clients get them right: a property
 * whose component is {@link Nullable} may be {@code null} ({@code type: [string, "null"]}, or {@code anyOf} a
 * reference and {@code null}); in a record the API writes, every property is required, as Jackson writes every
 * component, {@code null} or not, unless it is {@link JsonInclude left out} (then it is optional, and never
 * {@code null}). A request body's required properties are those it must contain ({@code @NotNull},
 * {@code @JsonProperty(required = true)}), as swagger-core finds them.
 */
class RecordSchemas implements ModelConverter {

	private static final String SCHEMAS = "#/components/schemas/";

	private final Supplier<Set<Class<?>>> requestBodies;

	/**
	 * @param requestBodies the types of the handlers' {@code @RequestBody} parameters: the records the API reads
	 */
	RecordSchemas(Supplier<Set<Class<?>>> requestBodies) {
		this.requestBodies = requestBodies;
	}

	@Override
	public @Nullable Schema<?> resolve(AnnotatedType type, ModelConverterContext context, Iterator<ModelConverter> chain) {
		Schema<?> schema = chain.hasNext() ? chain.next().resolve(type, context, chain) : null;
		Class<?> record = Json.mapper().constructType(type.getType()).getRawClass();
		if (schema != null && record.isRecord() && record.getPackageName().equals(getClass().getPackageName())) {
			Schema<?> model = (schema.get$ref() != null)
					? context.getDefinedModels().get(schema.get$ref().substring(SCHEMAS.length())) : schema;
			if (model != null && model.getProperties() != null) {
				complete(model, record, !this.requestBodies.get().contains(record));
			}
		}
		return schema;
	}

	private static void complete(Schema<?> model, Class<?> record, boolean written) {
		Set<String> required = new LinkedHashSet<>((model.getRequired() != null) ? model.getRequired() : List.of());
		for (RecordComponent component : record.getRecordComponents()) {
			Schema<?> property = model.getProperties().get(component.getName());
			if (property == null) {
				continue;
			}
			boolean leftOut = leftOutWhenNull(component);
			if (component.getAnnotatedType().isAnnotationPresent(Nullable.class)
					&& !component.getAccessor().isAnnotationPresent(NotNull.class) && !leftOut) {
				model.getProperties().put(component.getName(), orNull(property));
			}
			if (written && !leftOut) {
				required.add(component.getName());
			}
		}
		model.setRequired(required.isEmpty() ? null : new ArrayList<>(required));
	}

	private static boolean leftOutWhenNull(RecordComponent component) {
		JsonInclude include = component.getAccessor().getAnnotation(JsonInclude.class);
		return include != null && include.value() != JsonInclude.Include.ALWAYS;
	}

	/** The property, or {@code null}; a schema without a type (any JSON value) allows {@code null} already. */
	private static Schema<?> orNull(Schema<?> property) {
		if (property.get$ref() != null) {
			Schema<?> reference = new Schema<>().$ref(property.get$ref());
			Schema<?> nullable = new Schema<>().description(property.getDescription());
			nullable.setAnyOf(List.of(reference, new Schema<>().types(Set.of("null"))));
			return nullable;
		}
		if (property.getTypes() != null && !property.getTypes().contains("null")) {
			Set<String> types = new LinkedHashSet<>(property.getTypes());
			types.add("null");
			property.setTypes(types);
		}
		return property;
	}

}
