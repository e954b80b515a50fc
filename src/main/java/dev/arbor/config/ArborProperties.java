package dev.arbor.config;

import java.nio.file.Path;

import dev.arbor.storage.FsyncPolicy;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * Settings under {@code arbor.*}.
 *
 * @param storage where session files live and how appends reach the disk
 * @param api limits of the HTTP API
 */
@ConfigurationProperties("arbor")
@Validated
public record ArborProperties(@DefaultValue @Valid Storage storage, @DefaultValue @Valid Api api) {

	/**
	 * Session storage.
	 *
	 * @param dir the root directory, scanned recursively for {@code *.jsonl} session files
	 * @param fsync {@code always}: acknowledge an append once it is on disk; {@code never}: once written
	 * @param cacheSize loaded session files beyond which idle sessions are unloaded from memory
	 */
	public record Storage(@DefaultValue("data/sessions") @NotNull Path dir, @DefaultValue("always") @NotNull FsyncPolicy fsync,
			@DefaultValue("1GB") @NotNull DataSize cacheSize) {
	}

	/**
	 * The HTTP API.
	 *
	 * @param maxRequestBytes the largest request body accepted (imports included); larger ones get 413
	 */
	public record Api(@DefaultValue("16MB") @NotNull DataSize maxRequestBytes) {
	}

}
