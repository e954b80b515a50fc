package dev.arbor.session;

import java.util.function.IntFunction;
import java.util.stream.IntStream;

/**
 * Entry id → position in file order, open addressing over {@code int[]} tables: about 8 bytes an entry
 * where a {@code HashMap<String, Integer>} costs about 50. Keys are the entries' own ids, compared
 * without making strings of hex ids. Later puts of the same id win (duplicate ids: the later entry
 * wins for lookups, docs/SESSION-FORMAT.md#the-tree).
 * <p>
 * A large session's ids are split by hash over one table per core, so that {@link #putAll} fills the tables on
 * all cores at once (every id falls in one table, so the later duplicate still wins). Not thread-safe otherwise.
 */
final class IdIndex {

	/** Fewer entries are indexed in one table, on the caller's thread. */
	static final int PARALLEL_FROM = 20_000;

	private static final int EMPTY = 0;

	private final IntFunction<EntryLine> entryAt;

	/** Positions + 1, by slot; a table per share of the hash. */
	private final int[][] tables;

	private final int[] sizes;

	private int size;

	/** How many of the hash's top bits pick the table: 0 for one table. */
	private final int tableBits;

	/** @param entryAt the entry at a position; its id is the key, never stored twice */
	IdIndex(IntFunction<EntryLine> entryAt, int expected) {
		this.entryAt = entryAt;
		int cores = Runtime.getRuntime().availableProcessors();
		this.tableBits = (expected >= PARALLEL_FROM && cores > 1) ? 32 - Integer.numberOfLeadingZeros(cores - 1) : 0;
		int tableCount = 1 << this.tableBits;
		this.tables = new int[tableCount][];
		this.sizes = new int[tableCount];
		for (int t = 0; t < tableCount; t++) {
			this.tables[t] = new int[tableSize(expected / tableCount)];
		}
	}

	/** Position of the entry with this id, or -1. */
	int get(String id) {
		long hex = HexIds.parse(id);
		if (hex != HexIds.NOT_HEX) {
			return getHex((int) hex);
		}
		int hash = id.hashCode();
		int[] slots = this.tables[tableOf(hash)];
		int mask = slots.length - 1;
		for (int i = spread(hash) & mask;; i = (i + 1) & mask) {
			int slot = slots[i];
			if (slot == EMPTY || this.entryAt.apply(slot - 1).hasId(id)) {
				return slot - 1;
			}
		}
	}

	/** Position of the entry whose id is these 8 hex digits, or -1. */
	int getHex(int value) {
		int hash = HexIds.hash(value);
		int[] slots = this.tables[tableOf(hash)];
		int mask = slots.length - 1;
		for (int i = spread(hash) & mask;; i = (i + 1) & mask) {
			int slot = slots[i];
			if (slot == EMPTY || this.entryAt.apply(slot - 1).hasHexId(value)) {
				return slot - 1;
			}
		}
	}

	/** Position of the entry that lookups by this entry's id find, or -1. */
	int get(EntryLine entry) {
		return entry.isHexId() ? getHex(entry.hexId()) : get(entry.id());
	}

	/** Position of the entry's parent, or -1 when it has none or names no entry. */
	int getParent(EntryLine entry) {
		if (entry.hasHexParent()) {
			return getHex(entry.hexParentId());
		}
		String parentId = entry.textParentId();
		return (parentId != null) ? get(parentId) : -1;
	}

	/** Maps the entry's id to its position, replacing an earlier entry with the same id. */
	void put(EntryLine entry, int position) {
		int hash = entry.idHash();
		if (put(tableOf(hash), hash, entry, position)) {
			this.size++;
		}
	}

	/** {@link #put} of the entries at positions 0 to {@code count} in file order, one table per thread. */
	void putAll(int count) {
		if (this.tables.length == 1) {
			for (int i = 0; i < count; i++) {
				put(this.entryAt.apply(i), i);
			}
			return;
		}
		int[] hashes = new int[count];
		IntStream.range(0, count).parallel().forEach(i -> hashes[i] = this.entryAt.apply(i).idHash());
		IntStream.range(0, this.tables.length).parallel().forEach(table -> {
			for (int i = 0; i < count; i++) {
				if (tableOf(hashes[i]) == table) {
					put(table, hashes[i], this.entryAt.apply(i), i);
				}
			}
		});
		this.size = 0;
		for (int tableSize : this.sizes) {
			this.size += tableSize;
		}
	}

	/** How many distinct ids. */
	int size() {
		return this.size;
	}

	/** Returns whether the id is new (else it replaced an earlier entry's). */
	private boolean put(int table, int hash, EntryLine entry, int position) {
		if ((this.sizes[table] + 1) * 2 > this.tables[table].length) {
			rehash(table, this.tables[table].length * 2);
		}
		int[] slots = this.tables[table];
		int mask = slots.length - 1;
		for (int i = spread(hash) & mask;; i = (i + 1) & mask) {
			int slot = slots[i];
			if (slot == EMPTY) {
				slots[i] = position + 1;
				this.sizes[table]++;
				return true;
			}
			if (this.entryAt.apply(slot - 1).hasSameId(entry)) {
				slots[i] = position + 1;
				return false;
			}
		}
	}

	private void rehash(int table, int newLength) {
		int[] old = this.tables[table];
		int[] slots = new int[newLength];
		int mask = newLength - 1;
		for (int slot : old) {
			if (slot != EMPTY) {
				int i = spread(this.entryAt.apply(slot - 1).idHash()) & mask;
				while (slots[i] != EMPTY) {
					i = (i + 1) & mask;
				}
				slots[i] = slot;
			}
		}
		this.tables[table] = slots;
	}

	/** The table of a hash: its top bits, mixed, so that they are independent of the slot bits. */
	private int tableOf(int hash) {
		return (this.tableBits == 0) ? 0 : (hash * 0x9E3779B9) >>> (32 - this.tableBits);
	}

	private static int tableSize(int expected) {
		int size = 16;
		while (size < expected * 2) {
			size <<= 1;
		}
		return size;
	}

	private static int spread(int hash) {
		return hash ^ (hash >>> 16);
	}

	@Override
	public String toString() {
		return "IdIndex[size=" + this.size + ", tables=" + this.tables.length + "]";
	}

}
