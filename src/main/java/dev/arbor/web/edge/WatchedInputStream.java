package dev.arbor.web.edge;

import java.io.IOException;
import java.util.function.BooleanSupplier;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;

/**
 * A request body that a filter looks at as it is read, without holding it: each chunk goes to {@link #watch}
 * before the reader gets it, and {@link #ended} is told when the body ends. Either may refuse the body by throwing;
 * an {@link IOException}, because Spring wraps what a converter's read throws and the problem handler finds it.
 */
abstract class WatchedInputStream extends ServletInputStream {

	private final ServletInputStream in;

	WatchedInputStream(ServletInputStream in) {
		this.in = in;
	}

	/** Bytes just read, {@code buffer[offset]} to {@code buffer[offset + length - 1]}. */
	protected abstract void watch(byte[] buffer, int offset, int length) throws IOException;

	/** The body ended. */
	protected void ended() throws IOException {
	}

	@Override
	public int read() throws IOException {
		int b = this.in.read();
		if (b == -1) {
			ended();
		}
		else {
			watch(new byte[] { (byte) b }, 0, 1);
		}
		return b;
	}

	@Override
	public int read(byte[] buffer, int offset, int length) throws IOException {
		int n = this.in.read(buffer, offset, length);
		if (n == -1) {
			ended();
		}
		else if (n > 0) {
			watch(buffer, offset, n);
		}
		return n;
	}

	/**
	 * Reads and drops what is left of a refused body, {@code most} bytes at most, unwatched. Each read waits as long
	 * as any read of the body; {@code stop} is asked after each.
	 */
	protected final void discard(long most, BooleanSupplier stop) {
		byte[] scratch = new byte[8192];
		long left = most;
		try {
			int n = 0;
			while (n != -1 && left > 0 && !stop.getAsBoolean()) {
				n = this.in.read(scratch, 0, (int) Math.min(scratch.length, left));
				left -= Math.max(n, 0);
			}
		}
		catch (IOException ex) { // the body is refused already: a read of it that fails changes nothing
		}
	}

	@Override
	public boolean isFinished() {
		return this.in.isFinished();
	}

	@Override
	public boolean isReady() {
		return this.in.isReady();
	}

	@Override
	public void setReadListener(ReadListener listener) {
		this.in.setReadListener(listener);
	}

	@Override
	public void close() throws IOException {
		this.in.close();
	}

}
