/**
 * What makes `instanceof` hold across copies of the SDK (the ESM and CommonJS builds, two installs of one major
 * version): each error carries the names of its classes under a `Symbol.for` key that every copy shares.
 */
export const LINEAGE: unique symbol = Symbol.for('content-platform-sdk.error-lineage.v0') as never;

/** Sets a class's `name` on its prototype, as the built-in errors do, so every instance and its stack use it. */
export function named(type: { prototype: object }, name: string): void {
  Object.defineProperty(type.prototype, 'name', { value: name, writable: true, configurable: true });
}

/** The class names an instance descends through, most derived first: the brand `instanceof` reads. */
export function lineageOf(instance: object): readonly string[] {
  const names: string[] = [];
  for (let proto = Object.getPrototypeOf(instance); proto && proto !== Error.prototype; ) {
    if (Object.hasOwn(proto, 'name')) names.push(proto.name);
    proto = Object.getPrototypeOf(proto);
  }
  return names;
}

/**
 * `value instanceof type`, also for an error from another copy of the SDK: true when `value`'s lineage holds
 * the class's own name. A subclass a user wrote (no name of its own on its prototype) keeps the plain test.
 */
export function isBranded(type: { prototype: object }, value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (Object.prototype.isPrototypeOf.call(type.prototype, value)) return true;
  if (!Object.hasOwn(type.prototype, 'name')) return false;
  const lineage = (value as { [LINEAGE]?: unknown })[LINEAGE];
  return Array.isArray(lineage) && lineage.includes((type.prototype as { name: string }).name);
}
