package dev.arbor.web;

import java.util.List;

import dev.arbor.session.Json;
import org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.converter.HttpMessageConverters;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.cfg.JsonNodeFeature;
import tools.jackson.databind.type.LogicalType;

/** How the API reads requests and writes responses. */
@Configuration(proxyBeanMethods = false)
class WebConfiguration implements WebMvcConfigurer {

	@Override
	public void addArgumentResolvers(List<HandlerMethodArgumentResolver> resolvers) {
		resolvers.add(new ExpectedLeafResolver());
		resolvers.add(new IdempotencyKeys());
	}

	@Override
	public void configureMessageConverters(HttpMessageConverters.ServerBuilder builder) {
		builder.withYamlConverter(new NoYamlConverter());
	}

	/**
	 * Strict JSON for requests: a number is no string, a string no boolean (a wrong type is a 400, not a guess),
	 * and drafts keep the digits of their decimals as the engine does ({@code Json.MAPPER}), refusing those the
	 * engine could not write back ({@code Json.NODES}) as malformed JSON rather than failing when the entry is made;
	 * a field Arbor's own bodies do not have is refused ({@link UnknownFieldsRefused}).
	 */
	@Bean
	JsonMapperBuilderCustomizer strictRequests() {
		return builder -> builder.disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
			.addHandler(new UnknownFieldsRefused())
			.enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
			.disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
			.nodeFactory(Json.NODES)
			.withCoercionConfig(LogicalType.Textual, config -> config.setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
				.setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
				.setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail));
	}

	@Bean
	StoredJsonModule storedJsonModule() {
		return new StoredJsonModule();
	}

}
