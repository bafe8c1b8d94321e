// The reference server's one door into the SDK's core: the errors room, for the `InvalidParamsError` its options
// checks throw and the `checkKeys` that names the nearest known key. Nothing else of the SDK (no zod, no ky) is
// reached from src/testing, so the server stays an independent oracle of the wire.
import { checkKeys, InvalidParamsError, isGiven, kindOf, shown } from '../../core/errors/index.js';

export { checkKeys, InvalidParamsError, isGiven, shown };

/** A copy of an options object without its `undefined` and `null` fields: either is a field not given. */
export function present<T extends object>(options: T): T {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value != null)) as T;
}

/**
 * Refuses a value of `name` unless it is a whole number from `min` to `max`.
 * @throws {InvalidParamsError} `<where>: <name> must be a whole number from <min> to <max>; got <value>.`
 */
export function wholeNumber(value: unknown, min: number, max: number, where: string, name: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
    throw new InvalidParamsError(
      `${where}: ${name} must be a whole number from ${min} to ${max}; got ${shown(value)}.`,
      name,
    );
  return value;
}

/**
 * Refuses a value of `name` unless it is a share: a number from 0 to 1.
 * @throws {InvalidParamsError} `<where>: <name> must be a number from 0 to 1; got <value>.`
 */
export function share(value: unknown, where: string, name: string): number {
  if (typeof value !== 'number' || !(value >= 0 && value <= 1))
    throw new InvalidParamsError(
      `${where}: ${name} must be a number from 0 to 1; got ${shown(value)}.`,
      name,
    );
  return value;
}

/**
 * Refuses a value of `name` unless it is one of `allowed` (strings).
 * @throws {InvalidParamsError} `<where>: <name> must be 'a' or 'b'; got <value>.`
 */
export function oneOf<T extends string>(
  value: unknown,
  allowed: readonly T[],
  where: string,
  name: string,
): T {
  if (!allowed.includes(value as T)) {
    const list = allowed.map((a) => `'${a}'`);
    throw new InvalidParamsError(
      `${where}: ${name} must be ${list.slice(0, -1).join(', ')} or ${list.at(-1)}; got ${shown(value)}.`,
      name,
    );
  }
  return value as T;
}

/**
 * Refuses a value of `name` unless it is a function.
 * @throws {InvalidParamsError} `<where>: <name> must be a function; got <kind>.`
 */
export function aFunction(value: unknown, where: string, name: string): void {
  if (typeof value !== 'function')
    throw new InvalidParamsError(`${where}: ${name} must be a function; got ${kindOf(value)}.`, name);
}
