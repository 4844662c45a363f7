/** A bounded number of concurrent calls: the skeleton's reads and the examples' checks. */

/** Runs `work` over `items`, at most `n` at a time; results in the items' order. */
export async function inPool<T, R>(items: readonly T[], n: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
  return out;
}
