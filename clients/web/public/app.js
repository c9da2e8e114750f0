// The dashboard page: the instances of one moreaud (through the bridge's
// WebSocket, /ws) and a view of one instance: its bodies drawn with three.js
// at the poses of its Watch frames, contact force arrows, a plot of the base
// height, buttons and the keyboard's trot command.
import * as THREE from 'three';

const $ = (selector) => document.querySelector(selector);

/** What tests and the curious can read: the selected instance, frames seen, plot samples. */
const state = {
  connected: false,
  instances: [],
  selected: null,
  spec: null,
  frames: 0,
  lastFrame: null,
  samples: [],  // [time, base height]
  running: new Set(),
  command: [0, 0, 0],
};
window.dashboard = state;

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
    renderRunState();
  },
  reset: (m) => {
    say(`reset ${m.id}`);
    if (m.id === state.selected) {
      state.samples = [];
      dirty = true;
    }
  },
  destroyed: (m) => {
    say(`destroyed ${m.id}`);
    if (m.id === state.selected) deselect();
    send({ type: 'list' });
  },
  command: (m) => {
    $('#command').textContent = m.command.map((v) => v.toFixed(2)).join(', ');
  },
  pushed: (m) => say(`pushed ${m.id}`),
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
  state.samples = [];
  state.frames = 0;
  state.lastFrame = null;
  $('#instance-view').hidden = false;
  $('#instance-id').textContent = id.slice(0, 8);
  $('#instance-model').textContent = '';
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
  // Only instances made here with a controller (control mode "command") run.
  const runnable = Boolean(state.spec && state.spec.controlMode === 'command');
  $('#run').disabled = !runnable || running;
  $('#pause').disabled = !running;
  $('#run-state').textContent = running ? 'running in real time'
    : runnable ? 'paused' : 'watching (runs only instances created here with a controller)';
}

$('#run').addEventListener('click', () => send({ type: 'run', id: state.selected, realtime: true }));
$('#pause').addEventListener('click', () => send({ type: 'pause', id: state.selected }));
$('#reset').addEventListener('click', () => send({ type: 'reset', id: state.selected }));
$('#destroy').addEventListener('click', () => send({ type: 'destroy', id: state.selected }));
$('#push').addEventListener('click', () =>
  send({ type: 'push', id: state.selected, force: [0, 120, 0], duration: 0.1 }));

// -------------------------------------------------------------- keyboard --

const KEYS = { w: [0, 1], s: [0, -1], a: [1, 1], d: [1, -1], q: [2, 1], e: [2, -1] };
const held = new Set();

function updateCommand() {
  if (!state.selected || !state.spec || state.spec.controlMode !== 'command') return;
  const upper = state.spec.actionUpper;
  const command = [0, 0, 0];
  for (const key of held) {
    const [axis, sign] = KEYS[key];
    command[axis] += sign * 0.7 * (upper[axis] ?? 0);
  }
  state.command = command;
  send({ type: 'command', id: state.selected, forward: command[0], lateral: command[1], yaw: command[2] });
}

window.addEventListener('keydown', (event) => {
  const key = event.key.toLowerCase();
  if (!(key in KEYS) || event.target.closest('input, select, textarea') || held.has(key)) return;
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

function buildRobot(spec) {
  if (!scene) return;
  clearRobot();
  $('#instance-model').textContent = spec.name;
  robot = new THREE.Group();
  const material = new THREE.MeshLambertMaterial({ color: ROBOT_COLOUR });
  const darker = new THREE.MeshLambertMaterial({ color: 0xb35900 });
  const drawn = new Set();
  const meshed = new Set();
  spec.bodyNames.forEach((name, index) => {
    if (index === 0) return;
    const group = new THREE.Group();
    group.name = name;
    bodyGroups.set(name, group);
    robot.add(group);
  });
  for (const shape of spec.shapes) {
    const group = bodyGroups.get(spec.bodyNames[shape.body]);
    if (shape.type === 'mesh') meshed.add(shape.body);
    if (!group || shape.type === 'mesh') continue;
    let geometry = null;
    if (shape.type === 'box') geometry = new THREE.BoxGeometry(...shape.size);
    else if (shape.type === 'sphere') geometry = new THREE.SphereGeometry(shape.size[0], 24, 16);
    else if (shape.type === 'cylinder') {
      geometry = new THREE.CylinderGeometry(shape.size[0], shape.size[0], shape.size[1], 24);
      geometry.rotateX(Math.PI / 2);  // three.js's axis is y, the spec's is z
    }
    if (!geometry) continue;
    const mesh = new THREE.Mesh(geometry, shape.body === 1 ? material : darker);
    mesh.position.fromArray(shape.position);
    mesh.quaternion.copy(quaternion(shape.rotation));
    group.add(mesh);
    drawn.add(shape.body);
  }
  // A body without a shape to draw, or with meshes (their files are not at
  // hand): its inertia box.
  spec.bodies.forEach((body, index) => {
    if (index === 0 || (drawn.has(index) && !meshed.has(index)) || !body.inertiaBoxSize || body.inertiaBoxSize.length !== 3) return;
    const group = bodyGroups.get(spec.bodyNames[index]);
    const mesh = new THREE.Mesh(new THREE.BoxGeometry(...body.inertiaBoxSize),
      index === 1 ? material : darker);
    mesh.position.fromArray(body.com);
    mesh.quaternion.copy(quaternion(body.inertiaBoxRotation));
    group.add(mesh);
  });
  // Bodies nothing describes (an instance of a model that is not a
  // built-in, made elsewhere): a 4 cm cube at each body's origin.
  spec.bodyNames.forEach((name, index) => {
    const group = bodyGroups.get(name);
    if (index === 0 || !group || group.children.length) return;
    group.add(new THREE.Mesh(new THREE.BoxGeometry(0.04, 0.04, 0.04), index === 1 ? material : darker));
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

/** Newtons to metres of arrow. */
const FORCE_SCALE = 0.004;
const point = new THREE.Vector3();

function applyFrame(frame) {
  dirty = true;
  $('#frame-info').textContent = `t = ${frame.time.toFixed(3)} s, ${frame.steps ?? '–'} steps, ` +
    `${frame.bodies.length} bodies, contacts ${frame.contactFlags.filter(Boolean).length}` +
    `/${frame.contactFlags.length}`;
  const base = frame.bodies[0];
  if (base) {
    const last = state.samples[state.samples.length - 1];
    if (!last || frame.time !== last[0]) {
      if (last && frame.time < last[0]) state.samples = [];
      state.samples.push([frame.time, base.position[2]]);
      if (state.samples.length > 2000) state.samples.splice(0, state.samples.length - 2000);
    }
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

// ------------------------------------------------------------------ plot --

/** Seconds of history on the plot. */
const PLOT_SPAN_S = 10;

function drawPlot() {
  const canvas = $('#plot');
  const width = canvas.clientWidth || canvas.width;
  const height = canvas.clientHeight || canvas.height;
  if (canvas.width !== width || canvas.height !== height) {
    canvas.width = width;
    canvas.height = height;
  }
  const g = canvas.getContext('2d');
  g.clearRect(0, 0, width, height);
  const samples = state.samples;
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
  if (samples.length < 1) {
    g.fillText('no frames yet', left + 8, bottom - 8);
    return;
  }
  const end = samples[samples.length - 1][0];
  const start = Math.max(0, end - PLOT_SPAN_S);
  const visible = samples.filter(([t]) => t >= start);
  let low = Math.min(...visible.map(([, z]) => z));
  let high = Math.max(...visible.map(([, z]) => z));
  if (high - low < 0.05) {
    const middle = (high + low) / 2;
    low = middle - 0.025;
    high = middle + 0.025;
  }
  const x = (t) => left + (t - start) / PLOT_SPAN_S * (width - left - 8);
  const y = (z) => bottom - (z - low) / (high - low) * (bottom - 8);
  g.fillText(`${high.toFixed(3)} m`, 2, 12);
  g.fillText(`${low.toFixed(3)} m`, 2, bottom);
  g.fillText(`${start.toFixed(1)} s`, left, height - 4);
  g.fillText(`${end.toFixed(1)} s`, width - 44, height - 4);
  g.strokeStyle = '#e65100';
  g.lineWidth = 2;
  g.beginPath();
  visible.forEach(([t, z], i) => (i ? g.lineTo(x(t), y(z)) : g.moveTo(x(t), y(z))));
  g.stroke();
}

connect();
