// The dashboard page: the instances of one moreaud (through the bridge's
// WebSocket, /ws) and a view of one instance: its bodies drawn with three.js
// at the poses of its Watch frames, contact force arrows, plots of the base
// height and velocity, buttons, and the trot command from sliders and keys.
import * as THREE from 'three';
import { STLLoader } from 'three/addons/loaders/STLLoader.js';

const $ = (selector) => document.querySelector(selector);

/**
 * One frame's base, as plotted: x, y and height (m), heading (rad, unwrapped:
 * it carries on past ±π), tilt (rad, of the base's z axis from the vertical);
 * its velocity (the frame's baseVelocity) in the heading frame: forward and
 * lateral (m/s), yaw rate (rad/s), null when the frame has none; the command
 * the bridge applied (null for instances it does not command).
 * @typedef {{time: number, x: number, y: number, height: number, heading: number, tilt: number,
 *   forward: number | null, lateral: number | null, yawRate: number | null,
 *   applied: number[] | null}} TraceEntry
 */

/**
 * What tests and the curious can read: the selected instance, frames seen,
 * the base's trace (the plots' data, the last TRACE_LENGTH frames), the
 * measured velocity (the last frame's), the command asked for and the one
 * applied, the last push.
 */
const state = {
  connected: false,
  instances: [],
  selected: null,
  spec: null,
  frames: 0,
  lastFrame: null,
  /** @type {TraceEntry[]} */
  trace: [],
  /** @type {{forward: number, lateral: number, yawRate: number} | null} */
  measured: null,
  running: new Set(),
  stopped: new Map(),   // instance id → why its run stopped (it failed), until reset or run
  command: [0, 0, 0],   // asked for: the sliders', or the held keys'
  applied: null,        // applied by the bridge at its last step (frames' command.applied)
  lastPush: null,       // {id, force, start, time} of the last push answered
  meshes: { drawn: 0, failed: [] },  // the selected robot's visual meshes: drawn, and why not
};
window.dashboard = state;

/** The most trace entries kept. */
const TRACE_LENGTH = 3000;

// ------------------------------------------------------------ connection --

let socket = null;
let nextRef = 1;

function connect() {
  socket = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`);
  socket.addEventListener('open', () => {
    state.connected = true;
    setBadge('connected', 'ok');
    send({ type: 'list' });
    if (state.selected) select(state.selected);
  });
  socket.addEventListener('close', () => {
    state.connected = false;
    setBadge('disconnected', 'down');
    setTimeout(connect, 1000);
  });
  socket.addEventListener('message', (event) => {
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    const handler = handlers[message.type];
    if (handler) handler(message);
  });
}

function send(message) {
  if (!socket || socket.readyState !== WebSocket.OPEN) return;
  socket.send(JSON.stringify({ ...message, ref: nextRef++ }));
}

function setBadge(text, kind) {
  const badge = $('#connection');
  badge.textContent = text;
  badge.className = `badge ${kind}`;
}

function say(text, isError = false) {
  const element = $('#message');
  element.textContent = text;
  element.className = isError ? 'error' : '';
}

const handlers = {
  instances: (m) => {
    state.instances = m.instances;
    renderInstances();
  },
  created: (m) => {
    say(`created ${m.id}`);
    send({ type: 'list' });
    select(m.id);
  },
  spec: (m) => {
    if (m.id !== state.selected) return;
    state.spec = m.spec;
    buildRobot(m.spec);
    renderRunState();
  },
  frame: (m) => {
    if (m.id !== state.selected) return;
    state.frames++;
    state.lastFrame = m;
    applyFrame(m);
  },
  watching: () => {},
  unwatched: (m) => {
    if (m.reason) say(`watch ended: ${m.reason}`);
  },
  running: (m) => {
    if (m.running) state.running.add(m.id);
    else state.running.delete(m.id);
    if (m.running || !m.reason) state.stopped.delete(m.id);
    else state.stopped.set(m.id, m.reason);
    renderRunState();
  },
  reset: (m) => {
    say(`reset ${m.id}`);
    state.stopped.delete(m.id);
    renderRunState();
    if (m.id === state.selected) {
      state.trace = [];
      state.measured = null;
      dirty = true;
    }
  },
  destroyed: (m) => {
    say(`destroyed ${m.id}`);
    if (m.id === state.selected) deselect();
    send({ type: 'list' });
  },
  command: (m) => {
    $('#command').textContent = formatCommand(m.command);
  },
  pushed: (m) => {
    say(`pushed ${m.id} at t = ${m.start.toFixed(3)} s`);
    state.lastPush = { id: m.id, force: m.force, start: m.start, time: m.time };
  },
  error: (m) => say(m.message, true),
};

// ------------------------------------------------------------- instances --

let missing = 0;

function renderInstances() {
  const body = $('#instances tbody');
  body.replaceChildren(...state.instances.map((info) => {
    const row = document.createElement('tr');
    row.dataset.id = info.id;
    if (info.id === state.selected) row.className = 'selected';
    const cells = [
      [info.id.slice(0, 8), ''],
      [info.model, ''],
      [info.time.toFixed(2), 'num'],
      [String(info.steps), 'num'],
      [info.stepsPerSecond === null ? '—' : Math.round(info.stepsPerSecond).toString(), 'num'],
      [info.running ? `${info.status}, running` : info.status, ''],
    ];
    for (const [text, className] of cells) {
      const cell = document.createElement('td');
      cell.textContent = text;
      if (className) cell.className = className;
      row.append(cell);
    }
    row.title = `${info.id} (contact ${info.contactModel || 'default'}, controller ${info.controller || 'none'})`;
    row.addEventListener('click', () => select(info.id));
    return row;
  }));
  // Gone from two listings in a row (one may have been asked before it was made).
  if (state.selected && !state.instances.some((i) => i.id === state.selected)) {
    missing++;
    if (missing >= 2) deselect();
  } else {
    missing = 0;
  }
}

$('#create-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const form = new FormData(event.target);
  send({ type: 'create', model: form.get('model'), contactModel: form.get('contactModel'),
    controller: form.get('controller') });
});

setInterval(() => send({ type: 'list' }), 1000);

function select(id) {
  state.selected = id;
  missing = 0;
  state.spec = null;
  state.trace = [];
  state.measured = null;
  state.applied = null;
  state.frames = 0;
  state.lastFrame = null;
  $('#instance-view').hidden = false;
  $('#instance-id').textContent = id.slice(0, 8);
  $('#instance-model').textContent = '';
  for (const axis of AXES) {
    $(`#slider-${axis}`).value = '0';
    $(`#slider-${axis}-value`).textContent = '0.00';
  }
  for (const readout of ['#command', '#applied', '#measured']) $(readout).textContent = '–';
  ensureScene();
  clearRobot();
  send({ type: 'spec', id });
  send({ type: 'watch', id, rateHz: 30 });
  renderInstances();
  renderRunState();
}

function deselect() {
  send({ type: 'unwatch' });
  state.selected = null;
  state.spec = null;
  $('#instance-view').hidden = true;
  renderInstances();
}

function renderRunState() {
  const running = state.selected && state.running.has(state.selected);
  // Only instances made here with a controller (control mode "command"), and
  // the demo arm, run.
  const commanded = Boolean(state.spec && state.spec.controlMode === 'command');
  const runnable = commanded || Boolean(state.spec && state.spec.motion);
  $('#run').disabled = !runnable || running;
  $('#pause').disabled = !running;
  const stopped = state.selected && state.stopped.get(state.selected);
  $('#run-state').textContent = running ? 'running in real time'
    : stopped ? `stopped: ${stopped}. Reset, then Run.`
      : runnable ? 'paused' : 'watching (runs only instances created here with a controller)';
  $('#run-state').className = stopped && !running ? 'error' : '';
  renderSliders(commanded);
}

$('#run').addEventListener('click', () => send({ type: 'run', id: state.selected, realtime: true }));
$('#pause').addEventListener('click', () => send({ type: 'pause', id: state.selected }));
$('#reset').addEventListener('click', () => send({ type: 'reset', id: state.selected }));
$('#destroy').addEventListener('click', () => send({ type: 'destroy', id: state.selected }));
// Push: the force of #push-force (N) on the base for 0.1 s, sideways to the
// robot's left (the heading frame's y axis, horizontal).
$('#push').addEventListener('click', () => {
  const newtons = Number($('#push-force').value) || 0;
  const base = state.lastFrame && state.lastFrame.bodies[0];
  const heading = base ? headingOf(base.quaternion) : 0;
  const force = [-Math.sin(heading) * newtons, Math.cos(heading) * newtons, 0];
  send({ type: 'push', id: state.selected, force, duration: 0.1 });
});

// ----------------------------------------------------- sliders, keyboard --

const AXES = ['forward', 'lateral', 'yaw'];
const KEYS = { w: [0, 1], s: [0, -1], a: [1, 1], d: [1, -1], q: [2, 1], e: [2, -1] };
const held = new Set();

/** The sliders: enabled, and spanning the Spec's bounds, for instances under control mode command. */
function renderSliders(runnable) {
  const spec = state.spec;
  AXES.forEach((axis, i) => {
    const slider = $(`#slider-${axis}`);
    const bounded = runnable && spec && i < spec.actionUpper.length;
    slider.disabled = !bounded;
    if (!bounded) return;
    const [low, high] = [spec.actionLower[i], spec.actionUpper[i]];
    if (Number(slider.min) !== low || Number(slider.max) !== high) {
      slider.min = String(low);
      slider.max = String(high);
      slider.step = 'any';
      slider.value = '0';
      $(`#slider-${axis}-value`).textContent = '0.00';
    }
  });
}

/**
 * Sends the command asked for: per axis, the held keys' (70 % of the Spec's
 * bound each), else the slider's. The bridge ramps the applied command
 * toward it.
 */
function updateCommand() {
  if (!state.selected || !state.spec || state.spec.controlMode !== 'command') return;
  const upper = state.spec.actionUpper;
  const command = AXES.map((axis) => Number($(`#slider-${axis}`).value) || 0);
  const keyed = [false, false, false];
  for (const key of held) {
    const [axis, sign] = KEYS[key];
    if (!keyed[axis]) command[axis] = 0;
    keyed[axis] = true;
    command[axis] += sign * 0.7 * (upper[axis] ?? 0);
  }
  state.command = command;
  send({ type: 'command', id: state.selected, forward: command[0], lateral: command[1], yaw: command[2] });
}

for (const axis of AXES) {
  $(`#slider-${axis}`).addEventListener('input', (event) => {
    $(`#slider-${axis}-value`).textContent = Number(event.target.value).toFixed(2);
    updateCommand();
  });
}

window.addEventListener('keydown', (event) => {
  const key = event.key.toLowerCase();
  if (!(key in KEYS) || event.target.closest('input:not([type=range]), select, textarea') || held.has(key)) return;
  held.add(key);
  updateCommand();
});
window.addEventListener('keyup', (event) => {
  const key = event.key.toLowerCase();
  if (held.delete(key)) updateCommand();
});
window.addEventListener('blur', () => {
  if (held.size) {
    held.clear();
    updateCommand();
  }
});

// ----------------------------------------------------------------- scene --

const ROBOT_COLOUR = 0xff7f00;
let renderer = null;
let scene = null;
let camera = null;
let robot = null;           // THREE.Group holding one group per body
let bodyGroups = new Map(); // body name → THREE.Group (its frame)
let arrows = [];            // one per contact point
let skeleton = null;        // a line from each body's origin to its parent's
const cameraOffset = new THREE.Vector3(0.9, -1.3, 0.6);
let dirty = true;           // whether the view needs drawing

/** For tests: shows or hides the robot (its bodies) in the 3D view. */
window.dashboardView = {
  setRobotVisible(visible) {
    if (robot) robot.visible = visible;
    dirty = true;
  },
};

function ensureScene() {
  if (renderer) return;
  const container = $('#scene');
  try {
    renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
  } catch (error) {
    container.textContent = `3D view unavailable: ${error.message}`;
    return;
  }
  renderer.setPixelRatio(window.devicePixelRatio || 1);
  container.append(renderer.domElement);
  scene = new THREE.Scene();
  scene.background = new THREE.Color(0xdfe6ec);
  camera = new THREE.PerspectiveCamera(45, 1, 0.01, 100);
  camera.up.set(0, 0, 1);
  scene.add(new THREE.HemisphereLight(0xffffff, 0x667788, 2.0));
  const sun = new THREE.DirectionalLight(0xffffff, 1.5);
  sun.position.set(2, -3, 5);
  scene.add(sun);
  scene.add(groundPlane(40));
  scene.add(new THREE.AxesHelper(0.3));
  const resize = () => {
    const width = container.clientWidth || 640;
    const height = container.clientHeight || 420;
    renderer.setSize(width, height, true);
    camera.aspect = width / height;
    camera.updateProjectionMatrix();
    dirty = true;
  };
  new ResizeObserver(resize).observe(container);
  resize();
  camera.position.copy(cameraOffset);
  camera.lookAt(0, 0, 0.2);
  // Drawn when something changed (a frame, the robot, the size): no work
  // while nothing moves.
  renderer.setAnimationLoop(() => {
    if (!dirty) return;
    dirty = false;
    renderer.render(scene, camera);
    drawPlot();
  });
}

/** The plane z = 0, `size` m square, a 1 m grid of 0.25 m cells drawn on it. */
function groundPlane(size) {
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 256;
  const g = canvas.getContext('2d');
  g.fillStyle = '#c9d2d9';
  g.fillRect(0, 0, 256, 256);
  g.fillStyle = '#8d9ca8';
  for (let i = 1; i < 4; i++) {
    g.fillRect(i * 64 - 1, 0, 2, 256);
    g.fillRect(0, i * 64 - 1, 256, 2);
  }
  g.fillStyle = '#4f626e';
  g.fillRect(0, 0, 4, 256);
  g.fillRect(0, 0, 256, 4);
  const texture = new THREE.CanvasTexture(canvas);
  texture.wrapS = texture.wrapT = THREE.RepeatWrapping;
  texture.repeat.set(size, size);
  texture.anisotropy = 8;
  texture.colorSpace = THREE.SRGBColorSpace;
  return new THREE.Mesh(new THREE.PlaneGeometry(size, size),
    new THREE.MeshLambertMaterial({ map: texture }));
}

function clearRobot() {
  if (!scene) return;
  if (robot) scene.remove(robot);
  if (skeleton) scene.remove(skeleton);
  for (const arrow of arrows) scene.remove(arrow);
  robot = null;
  skeleton = null;
  dirty = true;
  bodyGroups = new Map();
  arrows = [];
}

const quaternion = (wxyz) => new THREE.Quaternion(wxyz[1], wxyz[2], wxyz[3], wxyz[0]);

/** A body's heading: the angle about z of its x axis on the ground plane (quaternion w, x, y, z). */
function headingOf([w, x, y, z]) {
  return Math.atan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z));
}

/** The angle of a body's z axis from the vertical (quaternion w, x, y, z). */
function tiltOf([, x, y]) {
  return Math.acos(Math.min(1, Math.max(-1, 1 - 2 * (x * x + y * y))));
}

const formatCommand = (command) => command.map((v) => v.toFixed(2)).join(', ');

/** The primitive geometry of a box, sphere or cylinder ShapeSpec; null for a mesh. */
function primitiveGeometry(shape) {
  if (shape.type === 'box') return new THREE.BoxGeometry(...shape.size);
  if (shape.type === 'sphere') return new THREE.SphereGeometry(shape.size[0], 24, 16);
  if (shape.type === 'cylinder') {
    const geometry = new THREE.CylinderGeometry(shape.size[0], shape.size[0], shape.size[1], 24);
    geometry.rotateX(Math.PI / 2);  // three.js's axis is y, the spec's is z
    return geometry;
  }
  return null;
}

/** A shape's mesh placed in its body's group. */
function placed(geometry, material, shape) {
  const mesh = new THREE.Mesh(geometry, material);
  mesh.position.fromArray(shape.position);
  mesh.quaternion.copy(quaternion(shape.rotation));
  return mesh;
}

/** Mesh geometries by URL (the bridge's /mesh): a promise each, failures included. */
const meshGeometries = new Map();

/** The geometry of a model's mesh, fetched once through the bridge (STL only). */
function meshGeometry(model, name) {
  const url = `/mesh?model=${encodeURIComponent(model)}&mesh=${encodeURIComponent(name)}`;
  if (!meshGeometries.has(url)) {
    meshGeometries.set(url, fetch(url).then(async (response) => {
      if (!response.ok) throw new Error(`${name}: ${(await response.text()).trim()}`);
      return new STLLoader().parse(await response.arrayBuffer());
    }));
  }
  return meshGeometries.get(url);
}

/**
 * Draws a body from the model's collision shapes, or its inertia box when it
 * has none to draw (or only meshes), or a 4 cm cube when nothing describes it
 * (an instance of a model that is not a built-in, made elsewhere).
 */
function drawCollisionBody(spec, index, group, material) {
  let drawn = 0;
  for (const shape of spec.shapes) {
    if (shape.body !== index) continue;
    const geometry = primitiveGeometry(shape);
    if (!geometry) continue;
    group.add(placed(geometry, material, shape));
    drawn += 1;
  }
  const meshed = spec.shapes.some((shape) => shape.body === index && shape.type === 'mesh');
  const body = spec.bodies[index];
  if ((!drawn || meshed) && body && body.inertiaBoxSize && body.inertiaBoxSize.length === 3) {
    const box = new THREE.Mesh(new THREE.BoxGeometry(...body.inertiaBoxSize), material);
    box.position.fromArray(body.com);
    box.quaternion.copy(quaternion(body.inertiaBoxRotation));
    group.add(box);
    drawn += 1;
  }
  if (!drawn) group.add(new THREE.Mesh(new THREE.BoxGeometry(0.04, 0.04, 0.04), material));
}

/** A visual's colour (its rgba), or `fallback`. */
function visualMaterial(shape, fallback) {
  if (!shape.rgba || shape.rgba.length !== 4) return fallback;
  const [r, g, b, a] = shape.rgba;
  return new THREE.MeshLambertMaterial({ color: new THREE.Color(r, g, b), transparent: a < 1,
    opacity: a });
}

/**
 * Draws a body from its URDF visuals: primitives at once, meshes once the
 * bridge has served them. If one of its meshes cannot be had (not compiled
 * into the server, or not STL), the body is drawn from its collision shapes
 * instead (drawCollisionBody). state.meshes counts the meshes drawn and
 * failed.
 */
function drawVisualBody(spec, index, group, fallback) {
  const visuals = spec.visualShapes.filter((shape) => shape.body === index);
  const parts = new THREE.Group();
  group.add(parts);
  const meshes = [];
  for (const shape of visuals) {
    const geometry = primitiveGeometry(shape);
    if (geometry) parts.add(placed(geometry, visualMaterial(shape, fallback), shape));
    else if (shape.type === 'mesh') meshes.push(shape);
  }
  if (!meshes.length) return;
  const owner = robot;
  Promise.all(meshes.map((shape) => meshGeometry(spec.name, shape.mesh))).then((geometries) => {
    if (robot !== owner) return;
    geometries.forEach((geometry, k) => {
      const mesh = placed(geometry, visualMaterial(meshes[k], fallback), meshes[k]);
      mesh.scale.fromArray(meshes[k].size.length === 3 ? meshes[k].size : [1, 1, 1]);
      parts.add(mesh);
    });
    state.meshes.drawn += geometries.length;
    dirty = true;
  }, (error) => {
    if (robot !== owner) return;
    state.meshes.failed.push(error.message);
    group.remove(parts);
    if (index > 0) drawCollisionBody(spec, index, group, fallback);
    dirty = true;
  });
}

function buildRobot(spec) {
  if (!scene) return;
  clearRobot();
  $('#instance-model').textContent = spec.name;
  robot = new THREE.Group();
  state.meshes = { drawn: 0, failed: [] };
  const material = new THREE.MeshLambertMaterial({ color: ROBOT_COLOUR });
  const darker = new THREE.MeshLambertMaterial({ color: 0xb35900 });
  const withVisuals = new Set((spec.visualShapes || []).map((shape) => shape.body));
  spec.bodyNames.forEach((name, index) => {
    // The world's visuals (a fixed base's link merged into it) stand still.
    if (index === 0 && !withVisuals.has(0)) return;
    const group = new THREE.Group();
    group.name = name;
    if (index > 0) bodyGroups.set(name, group);
    robot.add(group);
    const colour = index === 1 ? material : darker;
    if (withVisuals.has(index)) drawVisualBody(spec, index, group, colour);
    else drawCollisionBody(spec, index, group, colour);
  });
  if (spec.partial) say(spec.partial);
  scene.add(robot);
  dirty = true;
  const links = spec.bodies.filter((body, index) => index > 0 && body.parent > 0).length;
  if (links) {
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute('position', new THREE.BufferAttribute(new Float32Array(links * 6), 3));
    skeleton = new THREE.LineSegments(geometry, new THREE.LineBasicMaterial({ color: 0x4e342e }));
    skeleton.frustumCulled = false;
    scene.add(skeleton);
  }
  arrows = spec.contactPoints.map(() => {
    const arrow = new THREE.ArrowHelper(new THREE.Vector3(0, 0, 1), new THREE.Vector3(), 0.1,
      0x1565c0, 0.04, 0.025);
    arrow.visible = false;
    scene.add(arrow);
    return arrow;
  });
  if (state.lastFrame) applyFrame(state.lastFrame);
}

/** Adds a frame's base to the trace (a new state only) and the measured readout. */
function record(frame, base) {
  const last = state.trace[state.trace.length - 1];
  if (last && frame.time === last.time) return;
  if (last && frame.time < last.time) state.trace = [];
  const previous = state.trace[state.trace.length - 1];
  let heading = headingOf(base.quaternion);
  if (previous) heading = previous.heading + wrap(heading - previous.heading);
  const entry = { time: frame.time, x: base.position[0], y: base.position[1], height: base.position[2],
    heading, tilt: tiltOf(base.quaternion),
    forward: null, lateral: null, yawRate: null, applied: frame.command ? frame.command.applied : null };
  const velocity = frame.baseVelocity;
  if (velocity) {
    const [vx, vy] = velocity.linear;
    const [c, s] = [Math.cos(heading), Math.sin(heading)];
    entry.forward = c * vx + s * vy;
    entry.lateral = -s * vx + c * vy;
    entry.yawRate = velocity.yawRate;
    state.measured = { forward: entry.forward, lateral: entry.lateral, yawRate: entry.yawRate };
    $('#measured').textContent = `${entry.forward.toFixed(2)}, ${entry.lateral.toFixed(2)}, ` +
      `${entry.yawRate.toFixed(2)}`;
  }
  state.trace.push(entry);
  if (state.trace.length > TRACE_LENGTH) state.trace.splice(0, state.trace.length - TRACE_LENGTH);
}

/** An angle into [-π, π]. */
const wrap = (angle) => angle - 2 * Math.PI * Math.round(angle / (2 * Math.PI));

/** Newtons to metres of arrow. */
const FORCE_SCALE = 0.004;
const point = new THREE.Vector3();

function applyFrame(frame) {
  dirty = true;
  $('#frame-info').textContent = `t = ${frame.time.toFixed(3)} s, ${frame.steps ?? '–'} steps, ` +
    `${frame.bodies.length} bodies, contacts ${frame.contactFlags.filter(Boolean).length}` +
    `/${frame.contactFlags.length}`;
  const base = frame.bodies[0];
  if (base) record(frame, base);
  if (frame.command) {
    state.applied = frame.command.applied;
    $('#applied').textContent = formatCommand(frame.command.applied);
  }
  if (!robot) return;
  for (const body of frame.bodies) {
    const group = bodyGroups.get(body.name);
    if (!group) continue;
    group.position.fromArray(body.position);
    group.quaternion.copy(quaternion(body.quaternion));
  }
  const spec = state.spec;
  if (skeleton) {
    const positions = skeleton.geometry.attributes.position;
    let k = 0;
    spec.bodies.forEach((body, index) => {
      if (index === 0 || body.parent <= 0) return;
      const child = bodyGroups.get(spec.bodyNames[index]);
      const parent = bodyGroups.get(spec.bodyNames[body.parent]);
      positions.setXYZ(k++, child.position.x, child.position.y, child.position.z);
      positions.setXYZ(k++, parent.position.x, parent.position.y, parent.position.z);
    });
    positions.needsUpdate = true;
  }
  arrows.forEach((arrow, i) => {
    const force = frame.contactForces[i] || 0;
    const contact = spec.contactPoints[i];
    const group = bodyGroups.get(contact.body);
    if (!frame.contactFlags[i] || force < 0.5 || !group) {
      arrow.visible = false;
      return;
    }
    group.updateMatrixWorld();
    point.fromArray(contact.position).applyMatrix4(group.matrixWorld);
    point.z -= contact.radius;
    arrow.position.copy(point);
    arrow.setLength(Math.max(force * FORCE_SCALE, 0.05), 0.04, 0.025);
    arrow.visible = true;
  });
  if (base && camera) {
    const target = new THREE.Vector3().fromArray(base.position);
    camera.position.copy(target).add(cameraOffset);
    camera.lookAt(target);
  }
}

// ----------------------------------------------------------------- plots --

/** Seconds of history on the plots. */
const PLOT_SPAN_S = 10;

function drawPlot() {
  const visible = visibleTrace();
  plot($('#plot'), visible, [{ key: 'height', colour: '#e65100' }], 'm', 0.05);
  plot($('#velocity-plot'), visible, VELOCITY_LINES, '', 0.2);
}

/** The velocity plot's lines (their colours also in the legend, index.html). */
const VELOCITY_LINES = [
  { key: 'forward', colour: '#1565c0' },
  { key: 'lateral', colour: '#2e7d32' },
  { key: 'yawRate', colour: '#8e24aa' },
];

/** The trace's entries of the last PLOT_SPAN_S s. */
function visibleTrace() {
  const trace = state.trace;
  if (!trace.length) return [];
  const start = Math.max(0, trace[trace.length - 1].time - PLOT_SPAN_S);
  return trace.filter((entry) => entry.time >= start);
}

/**
 * Draws `lines` (keys of the trace's entries; null values skipped) against
 * simulated time on `canvas`, the value axis spanning at least `minSpan`.
 * @param {HTMLCanvasElement} canvas
 * @param {TraceEntry[]} visible
 * @param {{key: string, colour: string}[]} lines
 * @param {string} unit
 * @param {number} minSpan
 */
function plot(canvas, visible, lines, unit, minSpan) {
  const width = canvas.clientWidth || canvas.width;
  const height = canvas.clientHeight || canvas.height;
  if (canvas.width !== width || canvas.height !== height) {
    canvas.width = width;
    canvas.height = height;
  }
  const g = canvas.getContext('2d');
  g.clearRect(0, 0, width, height);
  const left = 48;
  const bottom = height - 18;
  g.strokeStyle = '#999';
  g.lineWidth = 1;
  g.beginPath();
  g.moveTo(left, 4);
  g.lineTo(left, bottom);
  g.lineTo(width - 4, bottom);
  g.stroke();
  g.fillStyle = '#555';
  g.font = '11px system-ui, sans-serif';
  const values = visible.flatMap((entry) => lines.map(({ key }) => entry[key]))
    .filter((value) => value !== null);
  if (!values.length) {
    g.fillText('no frames yet', left + 8, bottom - 8);
    return;
  }
  const end = visible[visible.length - 1].time;
  const start = Math.max(0, end - PLOT_SPAN_S);
  let low = values.reduce((a, b) => Math.min(a, b));
  let high = values.reduce((a, b) => Math.max(a, b));
  if (high - low < minSpan) {
    const middle = (high + low) / 2;
    low = middle - minSpan / 2;
    high = middle + minSpan / 2;
  }
  const x = (t) => left + (t - start) / PLOT_SPAN_S * (width - left - 8);
  const y = (v) => bottom - (v - low) / (high - low) * (bottom - 8);
  const suffix = unit ? ` ${unit}` : '';
  g.fillText(`${high.toFixed(3)}${suffix}`, 2, 12);
  g.fillText(`${low.toFixed(3)}${suffix}`, 2, bottom);
  g.fillText(`${start.toFixed(1)} s`, left, height - 4);
  g.fillText(`${(start + PLOT_SPAN_S).toFixed(1)} s`, width - 44, height - 4);
  if (low < 0 && high > 0) {
    g.strokeStyle = '#ccc';
    g.beginPath();
    g.moveTo(left, y(0));
    g.lineTo(width - 4, y(0));
    g.stroke();
  }
  g.lineWidth = 2;
  for (const { key, colour } of lines) {
    g.strokeStyle = colour;
    g.beginPath();
    let drawing = false;
    for (const entry of visible) {
      const value = entry[key];
      if (value === null) {
        drawing = false;
        continue;
      }
      if (drawing) g.lineTo(x(entry.time), y(value));
      else g.moveTo(x(entry.time), y(value));
      drawing = true;
    }
    g.stroke();
  }
}

connect();
