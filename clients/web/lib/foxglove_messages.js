'use strict';
// The messages of the Foxglove endpoint, in Foxglove's schemas
// (lib/foxglove_schemas.js), made from the bridge's frames
// (lib/watch_frames.js) and drawing specs (bridge.js drawingSpec):
//
// - foxglove.FrameTransforms: per body of a frame, the transform from
//   `world` to the body's frame `<instance id>/<body name>`;
// - foxglove.SceneUpdate: per body, an entity in the body's frame
//   (frame-locked) with its box, sphere and cylinder shapes, or its inertia
//   box when it has none of those (no shape, or meshes only), or a 4 cm cube
//   when the spec describes nothing of it; and per instance an entity in
//   `world` with an arrow up from each contact point in contact, its length
//   the normal force (4 mm per N, as on the page).
// Timestamps are the frame's simulated time.

/** @typedef {import('./watch_frames').Frame} Frame */

/** The fixed frame every body's transform is relative to. */
const WORLD_FRAME = 'world';
/** Colours as on the page: the base, the other bodies, contact arrows. */
const BASE_COLOUR = { r: 1, g: 0.498, b: 0, a: 1 };
const BODY_COLOUR = { r: 0.702, g: 0.349, b: 0, a: 1 };
const ARROW_COLOUR = { r: 0.082, g: 0.396, b: 0.753, a: 1 };
/** Metres of arrow per newton of normal force, and the arrow's shortest length. */
const FORCE_SCALE = 0.004;
const MIN_ARROW_LENGTH = 0.05;
/** Normal forces below this (N) draw no arrow. */
const MIN_ARROW_FORCE = 0.5;
const ARROW_HEAD_LENGTH = 0.04;
/** The rotation taking an arrow's +x (Foxglove's arrow axis) to world +z. */
const UP = { x: 0, y: -Math.SQRT1_2, z: 0, w: Math.SQRT1_2 };
const IDENTITY = { x: 0, y: 0, z: 0, w: 1 };
const ZERO_DURATION = { sec: 0, nsec: 0 };

/** The frame name of body `name` of instance `id`. */
function bodyFrame(id, name) {
  return `${id}/${name}`;
}

/**
 * Simulated time `seconds` as a Foxglove time.
 * @param {number} seconds
 * @returns {{sec: number, nsec: number}}
 */
function stamp(seconds) {
  const t = Math.max(0, seconds);
  let sec = Math.floor(t);
  let nsec = Math.round((t - sec) * 1e9);
  if (nsec >= 1e9) {
    sec += 1;
    nsec -= 1e9;
  }
  return { sec, nsec };
}

/** Simulated time `seconds` in nanoseconds (the messageData timestamp). */
function nanoseconds(seconds) {
  const { sec, nsec } = stamp(seconds);
  return BigInt(sec) * 1000000000n + BigInt(nsec);
}

/** @param {number[]} v @returns {{x: number, y: number, z: number}} */
const vector = (v) => ({ x: v[0], y: v[1], z: v[2] });
/** @param {number[]} q w, x, y, z @returns {{x: number, y: number, z: number, w: number}} */
const rotation = (q) => ({ x: q[1], y: q[2], z: q[3], w: q[0] });

/**
 * foxglove.FrameTransforms of a frame.
 * @param {Frame} frame
 */
function frameTransforms(frame) {
  const timestamp = stamp(frame.time);
  return {
    transforms: frame.bodies.map((body) => ({
      timestamp,
      parent_frame_id: WORLD_FRAME,
      child_frame_id: bodyFrame(frame.id, body.name),
      translation: vector(body.position),
      rotation: rotation(body.quaternion),
    })),
  };
}

/**
 * @param {string} entityId
 * @param {string} frameId
 * @param {boolean} frameLocked
 * @param {number} time
 * @param {Record<string, any>} primitives
 * @param {{key: string, value: string}[]} metadata
 */
function entity(entityId, frameId, frameLocked, time, primitives, metadata) {
  return {
    timestamp: stamp(time), frame_id: frameId, id: entityId, lifetime: ZERO_DURATION,
    frame_locked: frameLocked, metadata,
    arrows: [], cubes: [], spheres: [], cylinders: [], lines: [], triangles: [], texts: [], models: [],
    ...primitives,
  };
}

/**
 * The entities of an instance's bodies, one per body (world excluded).
 * @param {string} id
 * @param {Record<string, any>} spec the drawing spec
 * @param {number} time
 */
function bodyEntities(id, spec, time) {
  const names = /** @type {string[]} */ (spec.bodyNames);
  /** @type {{cubes: any[], spheres: any[], cylinders: any[]}[]} */
  const primitives = names.map(() => ({ cubes: [], spheres: [], cylinders: [] }));
  for (const shape of spec.shapes || []) {
    const into = primitives[shape.body];
    if (!into || shape.body === 0) continue;
    const color = shape.body === 1 ? BASE_COLOUR : BODY_COLOUR;
    const pose = { position: vector(shape.position), orientation: rotation(shape.rotation) };
    const size = shape.size;
    if (shape.type === 'box') {
      into.cubes.push({ pose, size: vector(size), color });
    } else if (shape.type === 'sphere') {
      const d = 2 * size[0];
      into.spheres.push({ pose, size: { x: d, y: d, z: d }, color });
    } else if (shape.type === 'cylinder') {
      const d = 2 * size[0];
      into.cylinders.push({ pose, size: { x: d, y: d, z: size[1] }, bottom_scale: 1, top_scale: 1, color });
    }
  }
  const entities = [];
  for (let index = 1; index < names.length; index++) {
    const into = primitives[index];
    const color = index === 1 ? BASE_COLOUR : BODY_COLOUR;
    if (!into.cubes.length && !into.spheres.length && !into.cylinders.length) {
      const body = (spec.bodies || [])[index];
      if (body && body.inertiaBoxSize && body.inertiaBoxSize.length === 3) {
        into.cubes.push({
          pose: { position: vector(body.com), orientation: rotation(body.inertiaBoxRotation) },
          size: vector(body.inertiaBoxSize), color,
        });
      } else {
        into.cubes.push({ pose: { position: { x: 0, y: 0, z: 0 }, orientation: IDENTITY },
          size: { x: 0.04, y: 0.04, z: 0.04 }, color });
      }
    }
    const frame = bodyFrame(id, names[index]);
    entities.push(entity(frame, frame, true, time, into,
      [{ key: 'model', value: String(spec.name) }, { key: 'body', value: names[index] }]));
  }
  return entities;
}

/**
 * The entity of an instance's contact forces in a frame: an arrow up from
 * each contact point in contact, in `world`.
 * @param {string} id
 * @param {Record<string, any>} spec the drawing spec
 * @param {Frame} frame
 */
function contactEntity(id, spec, frame) {
  const poses = new Map(frame.bodies.map((body) => [body.name, body]));
  const arrows = [];
  const points = spec.contactPoints || [];
  for (let i = 0; i < points.length; i++) {
    const force = frame.contactForces[i] || 0;
    const body = poses.get(points[i].body);
    if (!frame.contactFlags[i] || force < MIN_ARROW_FORCE || !body) continue;
    const p = rotate(body.quaternion, points[i].position);
    const length = Math.max(force * FORCE_SCALE, MIN_ARROW_LENGTH);
    arrows.push({
      pose: {
        position: { x: body.position[0] + p[0], y: body.position[1] + p[1],
          z: body.position[2] + p[2] - points[i].radius },
        orientation: UP,
      },
      shaft_length: length - ARROW_HEAD_LENGTH, shaft_diameter: 0.01,
      head_length: ARROW_HEAD_LENGTH, head_diameter: 0.025, color: ARROW_COLOUR,
    });
  }
  return entity(`${id}/contacts`, WORLD_FRAME, false, frame.time, { arrows },
    [{ key: 'normal force scale', value: `${FORCE_SCALE} m/N` }]);
}

/**
 * `v` rotated by the unit quaternion `q` (w, x, y, z).
 * @param {number[]} q
 * @param {number[]} v
 */
function rotate(q, v) {
  const [w, x, y, z] = q;
  // v + 2 w (u × v) + 2 u × (u × v), u = (x, y, z)
  const cx = y * v[2] - z * v[1];
  const cy = z * v[0] - x * v[2];
  const cz = x * v[1] - y * v[0];
  return [
    v[0] + 2 * (w * cx + y * cz - z * cy),
    v[1] + 2 * (w * cy + z * cx - x * cz),
    v[2] + 2 * (w * cz + x * cy - y * cx),
  ];
}

module.exports = {
  WORLD_FRAME, bodyFrame, stamp, nanoseconds, frameTransforms, bodyEntities, contactEntity, rotate,
};
