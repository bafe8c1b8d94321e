/** Form input after Laravel's TrimStrings and ConvertEmptyStringsToNull middleware. */
export type FormInput = Map<string, string | null>;

/** The rules this server needs, named after Laravel's. */
export interface Rule {
  /** Validate only when the field was sent (`sometimes`). */
  sometimes?: boolean;
  required?: boolean;
  /** Maximum length in characters. */
  max?: number;
  in?: readonly string[];
  /** Returns true when the value is already taken. */
  taken?: (value: string) => boolean;
}

/** A Laravel field-error map: field → messages. */
export type FieldErrors = Record<string, string[]>;

/**
 * Reads a form-encoded body (`application/x-www-form-urlencoded` only; any other body, JSON included,
 * is not understood and gives no fields). Values are trimmed, empty ones become null, the last duplicate wins.
 */
export async function readForm(request: Request): Promise<FormInput> {
  const type = request.headers.get('content-type') ?? '';
  const input: FormInput = new Map();
  if (!type.toLowerCase().startsWith('application/x-www-form-urlencoded')) return input;
  for (const [key, value] of new URLSearchParams(await request.text())) {
    const trimmed = value.trim();
    input.set(key, trimmed === '' ? null : trimmed);
  }
  return input;
}

/** Runs the rules in order and returns Laravel's messages, or null when the input passes. */
export function validate(input: FormInput, rules: Record<string, Rule>): FieldErrors | null {
  const errors: FieldErrors = {};
  for (const [field, rule] of Object.entries(rules)) {
    if (rule.sometimes && !input.has(field)) continue;
    const attr = field.replaceAll('_', ' ');
    const value = input.get(field) ?? null;
    const messages: string[] = [];
    if (value === null) {
      if (rule.required) messages.push(`The ${attr} field is required.`);
    } else {
      if (rule.max !== undefined && [...value].length > rule.max) {
        messages.push(`The ${attr} field must not be greater than ${rule.max} characters.`);
      }
      if (rule.in && !rule.in.includes(value)) messages.push(`The selected ${attr} is invalid.`);
      if (rule.taken?.(value)) messages.push(`The ${attr} has already been taken.`);
    }
    if (messages.length > 0) errors[field] = messages;
  }
  return Object.keys(errors).length > 0 ? errors : null;
}

/** The fields of the input that the rules know, with their values (null for a cleared field). */
export function accepted(input: FormInput, fields: readonly string[]): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const field of fields) if (input.has(field)) out[field] = input.get(field) ?? null;
  return out;
}
