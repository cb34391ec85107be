/**
 * Shared scaffolding of the table tests: every table is checked against a `Map` model
 * by the same driver, so a table's behaviour is defined by one reference.
 * @internal
 * @module
 */
import { expect } from "vitest";

/** The map-like surface every table here offers. */
export interface MapLike<K, V> {
  readonly size: number;
  get(key: K): V | undefined;
  set(key: K, value: V): void;
  delete(key: K): boolean;
}

/**
 * Apply `ops` (`[0, key]` set to the op's index, `[1, key]` delete, `[2, key]` get, `[3, _]` get
 * every live key in the model's order) to the table and to a `Map`, asserting after each step that
 * results and sizes agree; returns the model for further checks.
 */
export function runAgainstMap<K, T extends MapLike<K, number>>(table: T, ops: readonly (readonly [number, K])[]): Map<K, number> {
  const model = new Map<K, number>();
  ops.forEach(([op, key], i) => {
    if (op === 0) {
      table.set(key, i);
      model.set(key, i);
    } else if (op === 1) expect(table.delete(key)).toBe(model.delete(key));
    else if (op === 2) expect(table.get(key)).toBe(model.get(key));
    else for (const [k, v] of model) expect(table.get(k)).toBe(v);
    expect(table.size).toBe(model.size);
  });
  for (const [key, value] of model) expect(table.get(key)).toBe(value);
  return model;
}
