package dev.arbor.copy;

import java.nio.file.Files;
import java.nio.file.Path;

import dev.arbor.config.StorageType;
import dev.arbor.storage.SessionStore;
import dev.arbor.storage.file.FileSessionStore;
import dev.arbor.storage.postgres.PostgresSessionStore;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.ExitCodeGenerator;

/**
 * Runs the copy once the application has started, printing one line per session and per unreadable source file as
 * each is done, then a summary; {@link CopyCommand} exits with its {@link #getExitCode() exit code}.
 */
final class CopyRunner implements ApplicationRunner, ExitCodeGenerator {

	private final CopyProperties copy;

	private final CopyStores stores;

	private int exitCode = CopyCommand.EXIT_NOT_RUN;

	CopyRunner(CopyProperties copy, CopyStores stores) {
		this.copy = copy;
		this.stores = stores;
	}

	@Override
	public void run(ApplicationArguments arguments) {
		Path folder = this.stores.folder();
		if (this.copy.from() == StorageType.FILE && !Files.isDirectory(folder)) {
			// The file store would create it: a mistyped folder must not pass for an empty one.
			System.err.println("No folder " + folder + " to copy from (arbor.storage.dir)");
			return;
		}
		try (FileSessionStore files = this.stores.openFolder();
				PostgresSessionStore database = this.stores.openDatabase()) {
			SessionStore source = (this.copy.from() == StorageType.FILE) ? files : database;
			SessionStore target = (this.copy.to() == StorageType.FILE) ? files : database;
			CopyTally tally = new CopyTally();
			new StoreCopy(source, target, this.copy.skipMalformedLines()).run(outcome -> {
				System.out.println(outcome.line());
				tally.add(outcome);
			});
			System.out.println(tally.summary(this.copy.from(), this.copy.to()));
			this.exitCode = tally.exitCode();
		}
	}

	@Override
	public int getExitCode() {
		return this.exitCode;
	}

}
