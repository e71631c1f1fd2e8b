import { Kind, type SchemaOptions, Type, TypeRegistry } from '@sinclair/typebox';

if (!TypeRegistry.Has('StringEnum'))
  TypeRegistry.Set(
    'StringEnum',
    (schema: { enum: string[] }, value) => typeof value === 'string' && schema.enum.includes(value),
  );

/** A string enum as plain JSON Schema `{ type: 'string', enum: [...] }`: clearer validation
 *  errors and OpenAPI output than TypeBox's union of literals; checkable by TypeBox's Value. */
export function StringEnum<const T extends readonly string[]>(values: T, options: SchemaOptions = {}) {
  return Type.Unsafe<T[number]>({ ...options, [Kind]: 'StringEnum', type: 'string', enum: [...values] });
}
