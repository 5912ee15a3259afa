/**
 * Sets `key` as the newest entry of `map` and drops the oldest past `max`: the caches' bounded
 * memory (a Map keeps insertion order, so the first key is the one kept longest ago).
 */
export function keepNewest<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > max) {
    const oldest = map.keys().next().value;
    if (oldest !== undefined) map.delete(oldest);
  }
}
