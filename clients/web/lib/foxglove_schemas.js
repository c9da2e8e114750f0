'use strict';
// JSON Schemas (schemaEncoding "jsonschema") of the two Foxglove message
// schemas the Foxglove endpoint sends, foxglove.FrameTransforms and
// foxglove.SceneUpdate, with Foxglove's field names. Primitives this bridge
// never sends (lines, triangles, texts, models) are described as objects only.

const number = { type: 'number' };
const string = { type: 'string' };

/** @param {string} title @param {Record<string, any>} properties */
function object(title, properties) {
  return { title, type: 'object', properties, required: Object.keys(properties) };
}

/** @param {Record<string, any>} items */
const array = (items) => ({ type: 'array', items });

const time = {
  title: 'time', type: 'object',
  properties: { sec: { type: 'integer', minimum: 0 },
    nsec: { type: 'integer', minimum: 0, maximum: 999999999 } },
};
const duration = {
  title: 'duration', type: 'object',
  properties: { sec: { type: 'integer' }, nsec: { type: 'integer', minimum: 0, maximum: 999999999 } },
};
const vector3 = object('foxglove.Vector3', { x: number, y: number, z: number });
const quaternion = object('foxglove.Quaternion', { x: number, y: number, z: number, w: number });
const pose = object('foxglove.Pose', { position: vector3, orientation: quaternion });
const color = object('foxglove.Color', { r: number, g: number, b: number, a: number });

const frameTransform = object('foxglove.FrameTransform', {
  timestamp: time, parent_frame_id: string, child_frame_id: string,
  translation: vector3, rotation: quaternion,
});

const sceneEntity = object('foxglove.SceneEntity', {
  timestamp: time,
  frame_id: string,
  id: string,
  lifetime: duration,
  frame_locked: { type: 'boolean' },
  metadata: array(object('foxglove.KeyValuePair', { key: string, value: string })),
  arrows: array(object('foxglove.ArrowPrimitive', {
    pose, shaft_length: number, shaft_diameter: number, head_length: number,
    head_diameter: number, color,
  })),
  cubes: array(object('foxglove.CubePrimitive', { pose, size: vector3, color })),
  spheres: array(object('foxglove.SpherePrimitive', { pose, size: vector3, color })),
  cylinders: array(object('foxglove.CylinderPrimitive', {
    pose, size: vector3, bottom_scale: number, top_scale: number, color,
  })),
  lines: array({ title: 'foxglove.LinePrimitive', type: 'object' }),
  triangles: array({ title: 'foxglove.TriangleListPrimitive', type: 'object' }),
  texts: array({ title: 'foxglove.TextPrimitive', type: 'object' }),
  models: array({ title: 'foxglove.ModelPrimitive', type: 'object' }),
});

const sceneEntityDeletion = object('foxglove.SceneEntityDeletion', {
  timestamp: time,
  type: { title: 'foxglove.SceneEntityDeletionType',
    oneOf: [{ title: 'MATCHING_ID', const: 0 }, { title: 'ALL', const: 1 }] },
  id: string,
});

/** The schemas by name. */
const SCHEMAS = {
  'foxglove.FrameTransforms': object('foxglove.FrameTransforms', { transforms: array(frameTransform) }),
  'foxglove.SceneUpdate': object('foxglove.SceneUpdate', {
    deletions: array(sceneEntityDeletion), entities: array(sceneEntity),
  }),
};

module.exports = { SCHEMAS };
