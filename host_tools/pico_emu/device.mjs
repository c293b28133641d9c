// What the harness's scripts share: a staged tree copied onto the emulated Pico's littlefs through
// the raw REPL, and the JSON lines the firmware sends over USB.
import fs from 'node:fs';
import path from 'node:path';

export function treeFiles(dir, base = '') {
  const out = [];
  for (const name of fs.readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    const rel = base ? base + '/' + name : name;
    if (fs.statSync(full).isDirectory()) out.push(...treeFiles(full, rel));
    else if (rel !== 'firmware.romfs') out.push(rel);
  }
  return out;
}

// Copy every file of a staged tree (ludus flash --stage DIR) onto littlefs, as mpremote cp would.
export async function copyTree(emu, dir) {
  await emu.enterRaw();
  const made = new Set();
  let bytes = 0;
  const files = treeFiles(dir);
  for (const rel of files) {
    const dirs = rel.split('/').slice(0, -1);
    for (let d = 1; d <= dirs.length; d++) {
      const sub = '/' + dirs.slice(0, d).join('/');
      if (made.has(sub)) continue;
      made.add(sub);
      await emu.exec(`import os\ntry:\n os.mkdir(${JSON.stringify(sub)})\nexcept OSError:\n pass`);
    }
    const data = fs.readFileSync(path.join(dir, rel));
    bytes += data.length;
    await emu.putFile('/' + rel, data);
  }
  await emu.exitRaw();
  return { files: files.length, bytes };
}

// The JSON objects among the lines received since `from`, each with the emulated ms it arrived by.
export function jsonLines(emu, from) {
  const out = [];
  for (const line of emu.rx.slice(from).split(/\r?\n/)) {
    if (line.startsWith('{')) {
      try {
        out.push(JSON.parse(line));
      } catch {
        // a line cut off at the end of what has arrived
      }
    }
  }
  return out;
}

export async function waitJson(emu, pred, ns, from) {
  let found = null;
  await emu.runUntil(() => {
    found = jsonLines(emu, from).find(pred) || null;
    return found !== null;
  }, ns);
  return found;
}
