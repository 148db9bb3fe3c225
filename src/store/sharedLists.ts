// A run keeps a witness per attempt, and the verifier hands back the same list object when a run names the same tests
// as the one before it (verify/repeatedParts.ts): a 20,000-test suite's list is in memory once, however many
// attempts point at it. Written out naively it would be on disk, and in the text built to write it, once per attempt.
// A long list reached more than once is written once, in "$lists", and referred to as {"$list": index} elsewhere.

const MIN_SHARED_LENGTH = 100;

interface ListRef {
  $list: number;
}

/** The value with every long list reached twice or more replaced by a reference into `$lists` (added when any is). */
export function packSharedLists<T extends object>(value: T): T {
  const seen = new Set<unknown[]>();
  const repeated = new Set<unknown[]>();
  const count = (v: unknown): void => {
    if (Array.isArray(v)) {
      if (v.length >= MIN_SHARED_LENGTH && seen.has(v)) {
        repeated.add(v);
        return;
      }
      seen.add(v);
      v.forEach(count);
    } else if (v && typeof v === 'object') {
      for (const x of Object.values(v)) count(x);
    }
  };
  count(value);
  if (repeated.size === 0) return value;
  const index = new Map<unknown[], number>();
  const lists: unknown[][] = [];
  // A list whose items all stay as they are (a million test IDs) is itself, not a copy.
  const packItems = (v: unknown[]): unknown[] => {
    let out: unknown[] | null = null;
    for (let i = 0; i < v.length; i++) {
      const item = pack(v[i]);
      if (out === null && item !== v[i]) out = v.slice(0, i);
      if (out !== null) out.push(item);
    }
    return out ?? v;
  };
  const pack = (v: unknown): unknown => {
    if (Array.isArray(v)) {
      if (repeated.has(v)) {
        let i = index.get(v);
        if (i === undefined) {
          i = lists.length;
          index.set(v, i);
          lists.push(packItems(v));
        }
        return { $list: i } satisfies ListRef;
      }
      return packItems(v);
    }
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, pack(x)]));
    return v;
  };
  return { ...(pack(value) as T), $lists: lists };
}

/** The value packSharedLists wrote, with each reference replaced by its list (one array, shared again). */
export function unpackSharedLists(value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value) || !('$lists' in value)) return value;
  const { $lists: lists, ...rest } = value as { $lists: unknown };
  if (!Array.isArray(lists)) return value;
  const resolved = new Map<number, unknown[]>();
  const resolving = new Set<number>();
  const unpack = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(unpack);
    if (v && typeof v === 'object') {
      const ref = (v as Partial<ListRef>).$list;
      if (typeof ref === 'number' && Object.keys(v).length === 1) {
        const list = lists[ref];
        // A reference to nothing, or to a list holding itself, is left as it is: the saved run's shape check then
        // refuses the file in one sentence.
        if (!Array.isArray(list) || resolving.has(ref)) return v;
        let done = resolved.get(ref);
        if (!done) {
          resolving.add(ref);
          done = list.map(unpack);
          resolving.delete(ref);
          resolved.set(ref, done);
        }
        return done;
      }
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, unpack(x)]));
    }
    return v;
  };
  return unpack(rest);
}
