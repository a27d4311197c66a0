/**
 * The one cache of pictures the engine keeps (looks at a size, manifests, a rig's bases, turned heads and
 * warped references): a least-recently-used map bounded by its number of entries, by their total weight (bytes),
 * or both. A miss under the entry bound hands the evicted entry to `make` to draw into: a render meets hundreds
 * of poses, and a fresh buffer for each (380 KB at 720p) made the garbage collector run a full collection about
 * every second of a render. After Powertools' `LRUCache`, with recycling.
 */
export interface PoolBounds<V> {
  /** At most this many entries (read at each miss: a rig's bound depends on its region's size). @default no bound */
  maxEntries?: number | (() => number);
  /** At most this total weight, the most recently used entry always kept. @default no bound */
  maxWeight?: number;
  /** An entry's weight. @default 1 */
  weigh?: (value: V) => number;
}

export class PicturePool<V> {
  private readonly entries = new Map<string, V>();
  private total = 0;

  constructor(private readonly bounds: PoolBounds<V>) {}

  get size(): number {
    return this.entries.size;
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  /** The entry, made the most recently used; undefined when absent. */
  get(key: string): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  /** Keeps `value` under `key` as the most recently used, then drops the least recently used past the weight bound. */
  set(key: string, value: V): void {
    this.drop(key);
    this.entries.set(key, value);
    this.total += this.weigh(value);
    const { maxWeight } = this.bounds;
    if (maxWeight === undefined) return;
    while (this.total > maxWeight && this.entries.size > 1) this.drop(this.entries.keys().next().value!);
  }

  /**
   * The entry for `key`, or the one `make` makes. At the entry bound the least recently used entry is evicted first
   * and given to `make` (`recycled`) to reuse its buffer; otherwise `recycled` is undefined.
   */
  getOrMake(key: string, make: (recycled: V | undefined) => V): V {
    const kept = this.get(key);
    if (kept !== undefined) return kept;
    let recycled: V | undefined;
    const max = this.bounds.maxEntries;
    if (max !== undefined && this.entries.size >= (typeof max === 'number' ? max : max())) {
      const oldest = this.entries.keys().next().value!;
      recycled = this.entries.get(oldest);
      this.drop(oldest);
    }
    const value = make(recycled);
    this.set(key, value);
    return value;
  }

  private drop(key: string): void {
    const value = this.entries.get(key);
    if (value === undefined) return;
    this.total -= this.weigh(value);
    this.entries.delete(key);
  }

  private weigh(value: V): number {
    return this.bounds.weigh ? this.bounds.weigh(value) : 1;
  }
}
