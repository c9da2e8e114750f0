'use strict';
// Checks a plain request object against its message's descriptor before it
// is sent: gRPC's serializer silently drops keys it does not know, so a typo
// ('contactModle') or a snake_case name ('contact_model') would otherwise be
// a setting quietly left at its default.

/**
 * @typedef {object} FieldDescriptor
 * @property {string} name camelCase (the definition is loaded with keepCase: false)
 * @property {string} type 'TYPE_MESSAGE', 'TYPE_DOUBLE', …
 * @property {string} typeName the message type's name as the descriptor gives it
 * @property {string} label 'LABEL_REPEATED' or 'LABEL_OPTIONAL'
 */

/**
 * @typedef {object} MessageDescriptor
 * @property {string} name
 * @property {FieldDescriptor[]} field
 * @property {MessageDescriptor[]} nestedType
 * @property {{mapEntry?: boolean} | null} options mapEntry: the entry type of a map field
 */

/** 'contact_model' → 'contactModel' (what the snake_case name is called here). */
function camelCase(name) {
  return name.replace(/_([a-z0-9])/g, (_, letter) => letter.toUpperCase());
}

/**
 * The descriptor of a field's message type: a type nested in `scope` (as
 * Terrain.Flat), else the package's top-level type.
 * @param {Record<string, any>} packageDefinition
 * @param {string} packageName e.g. 'moreau.v1'
 * @param {MessageDescriptor} scope
 * @param {string} typeName
 * @returns {MessageDescriptor | undefined}
 */
function resolveType(packageDefinition, packageName, scope, typeName) {
  const nested = scope.nestedType.find((type) => type.name === typeName);
  if (nested) return nested;
  const topLevel = packageDefinition[`${packageName}.${typeName}`];
  return topLevel ? topLevel.type : undefined;
}

/** Whether `value` is a plain object (a message or a map given as {key: value}). */
function isPlainObject(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value) &&
    !Buffer.isBuffer(value);
}

/**
 * Throws a TypeError naming the first key of `value`, or of a message nested
 * in it, that is not a field of `descriptor` (with the field names it has).
 * @param {Record<string, any>} packageDefinition
 * @param {string} packageName
 * @param {MessageDescriptor} descriptor
 * @param {any} value
 * @param {string} where the value's name in the error message ('settings.terrain')
 */
function checkMessage(packageDefinition, packageName, descriptor, value, where) {
  if (!isPlainObject(value)) {
    throw new TypeError(`${where}: give an object (a ${descriptor.name} message), ` +
      `got ${Array.isArray(value) ? 'an array' : typeof value}`);
  }
  const fields = new Map(descriptor.field.map((field) => [field.name, field]));
  for (const [key, item] of Object.entries(value)) {
    const field = fields.get(key);
    if (!field) {
      const hint = fields.has(camelCase(key)) ? ` (did you mean '${camelCase(key)}'?)` : '';
      throw new TypeError(`${where}: unknown field '${key}'${hint}; ${descriptor.name} has ` +
        `${[...fields.keys()].join(', ')}`);
    }
    if (field.type !== 'TYPE_MESSAGE' || item === undefined || item === null) continue;
    const type = resolveType(packageDefinition, packageName, descriptor, field.typeName);
    if (!type) throw new Error(`the service definition has no message ${field.typeName}`);
    if (type.options && type.options.mapEntry) {
      // A map (e.g. contactParameters): an object of name → value.
      if (!isPlainObject(item)) {
        throw new TypeError(`${where}.${key}: give an object of name → value, got ${typeof item}`);
      }
      continue;
    }
    if (field.label === 'LABEL_REPEATED') {
      if (!Array.isArray(item)) throw new TypeError(`${where}.${key}: give an array`);
      item.forEach((element, i) =>
        checkMessage(packageDefinition, packageName, type, element, `${where}.${key}[${i}]`));
    } else {
      checkMessage(packageDefinition, packageName, type, item, `${where}.${key}`);
    }
  }
}

/**
 * Checks `value` as a message of `fullName` ('moreau.v1.Settings'); throws a
 * TypeError naming an unknown field.
 * @param {Record<string, any>} packageDefinition from @grpc/proto-loader
 * @param {string} fullName
 * @param {any} value
 * @param {string} where
 */
function checkFields(packageDefinition, fullName, value, where) {
  const entry = packageDefinition[fullName];
  if (!entry || !entry.type) throw new Error(`the service definition has no message ${fullName}`);
  const packageName = fullName.slice(0, fullName.lastIndexOf('.'));
  checkMessage(packageDefinition, packageName, entry.type, value, where);
}

module.exports = { checkFields };
