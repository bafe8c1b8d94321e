import { type ZodMiniObject, ZodMiniType } from 'zod/mini';
import {
  $constructor,
  type $strip,
  type $ZodObjectDef,
  $ZodObjectJIT,
  type $ZodShape,
  util,
} from 'zod/v4/core';
import { en } from 'zod/v4/locales';

// The schemas are built on zod/mini: zod classic's chainable classes cannot be tree-shaken (its JSON Schema
// support alone is ~18 KB minified), which tripled the bundle. See bench/RESULTS.md.

/** Parse context: English issue messages, as zod classic gives, without changing zod's global config. */
export const PARSE_CONTEXT = { error: en().localeError };

// mini's object checks each key through the generic path; classic's compiles a fast path (new Function, where
// the runtime allows it, else the same generic path). This is mini's object with classic's fast path: a
// 100-pixel page parses ~3× faster.
const FastObject = /*@__PURE__*/ $constructor<ZodMiniObject, $ZodObjectDef>(
  'ContentPlatformObject',
  (inst, def) => {
    $ZodObjectJIT.init(inst, def);
    ZodMiniType.init(inst, def);
    util.installLazyProp(inst, 'shape', (self: ZodMiniObject) => self._zod.def.shape, false);
  },
);

/** `z.object(shape)` of zod/mini, with zod classic's compiled fast path. */
export function object<T extends $ZodShape>(shape: T): ZodMiniObject<T, $strip> {
  return new FastObject({ type: 'object', shape }) as unknown as ZodMiniObject<T, $strip>;
}
