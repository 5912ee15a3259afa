// Reads measured with wrk (C, Debian's `wrk`): autocannon parses every answer in JavaScript on
// the same two cores as the server, so it saturates before the server does (decision 039). wrk
// needs a fraction of a core for the same load, so its figures are the server's own. Each read is
// compared with two baselines measured in the same run: a bare node:http hello world (what the
// runtime can do at all) and a bare node:http server sending the very same bytes and headers the
// product sent for that read (the cost of the answer's size alone, without the product's code).
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

/** wrk on the PATH, installed from Debian's packages when missing (the bench needs it, CI does not). */
export function ensureWrk() {
  if (spawnSync('wrk', ['--version']).error === undefined) return;
  if (process.getuid?.() !== 0) throw new Error('wrk is missing: apt-get install wrk (Debian), then run the bench again');
  console.log('› wrk is missing: installing Debian’s wrk');
  execFileSync('apt-get', ['install', '-y', '-qq', 'wrk'], {
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    stdio: 'inherit',
  });
}

const UNIT_MS = { us: 0.001, ms: 1, s: 1000, m: 60_000 };
const ms = (text) => {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(text);
  return m ? Number(m[1]) * UNIT_MS[m[2]] : NaN;
};

/**
 * One wrk run: `connections` keep-alive connections on `threads` threads for `seconds`.
 * Gives req/s, the latency percentiles wrk measured (ms, from its --latency table) and errors
 * (socket errors and non-2xx answers).
 */
export async function wrk(url, { connections = 50, seconds = 5, threads = 2, headers = {}, script } = {}) {
  const args = ['-t', String(threads), '-c', String(connections), '-d', `${seconds}s`, '--latency'];
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}: ${v}`);
  if (script) args.push('-s', script);
  // Asynchronous: the same-bytes server answers from this very process while wrk runs.
  const { stdout: out, stderr } = await promisify(execFile)('wrk', [...args, url], { encoding: 'utf8' });
  // A script wrk cannot load is reported on stderr, and wrk then sends plain GETs instead.
  if (script && stderr.trim()) throw new Error(`wrk script ${script}: ${stderr.trim()}`);
  const pct = (p) => ms(new RegExp(`^\\s+${p}%\\s+(\\S+)`, 'm').exec(out)?.[1] ?? '');
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN),
    total: Number(/(\d+) requests in/.exec(out)?.[1] ?? 0),
    p50: pct(50),
    p90: pct(90),
    p99: pct(99),
    errors:
      non2xx +
      (socket ? socket.slice(1).reduce((s, n) => s + Number(n), 0) : 0) +
      // Refusals in a 200 envelope, counted by wrkPosts' script.
      Number(/^refused (\d+)$/m.exec(out)?.[1] ?? 0),
    ...(/^refused sample (.*)$/m.exec(out) ? { errorSamples: [/^refused sample (.*)$/m.exec(out)[1]] } : {}),
  };
}

/** A JSON body as a Lua string literal (long brackets: no escaping needed for JSON). */
const luaString = (text) => `[==[${text}]==]`;

/**
 * POSTs of JSON bodies through wrk, each body sent once at most (a login's captcha can be used
 * only once): the bodies are split between wrk's threads, each thread sends its share in turn and
 * counts every answer whose envelope says success:false (the API answers refusals with 200).
 * wrk runs for `seconds` whatever happens: give more bodies than it can send.
 */
export async function wrkPosts(url, bodies, { connections = 8, seconds = 5, threads = 2 } = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), 'zk-wrk-'));
  const script = path.join(dir, 'posts.lua');
  writeFileSync(
    script,
    `local bodies = {${bodies.map(luaString).join(',\n')}}
local threads, count = {}, 0
function setup(thread)
  thread:set("id", count)
  count = count + 1
  table.insert(threads, thread)
end
function init(args)
  step = ${threads}
  next_body = id + 1
  refused = 0
  sample = nil
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/json"
end
function request()
  local body = bodies[next_body] or bodies[#bodies]
  next_body = next_body + step
  return wrk.format(nil, nil, nil, body)
end
function response(status, headers, body)
  if status < 300 and string.sub(body, 1, 16) == '{"success":false' then
    refused = refused + 1
    if sample == nil then sample = string.sub(body, 1, 120) end
  end
end
function done(summary, latency, requests)
  local total, first = 0, nil
  for _, t in ipairs(threads) do
    total = total + t:get("refused")
    first = first or t:get("sample")
  end
  io.write("refused " .. total .. "\\n")
  if first then io.write("refused sample " .. first .. "\\n") end
end
`,
  );
  try {
    return await wrk(url, { connections, seconds, threads, script });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const median = (xs) => {
  const sorted = [...xs].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/**
 * Several URLs measured in rounds: each round runs every one of them for `seconds`, one right
 * after the other (in turned order every other round). This machine's speed drifts by a third
 * within a minute (other tenants' work on the host): measured one after the other for 5 s each,
 * the ratios of the same build ranged 0.55–1.05; neighbours in time see the same machine. Gives,
 * per name, the median req/s, p50 and p99 of the rounds and the errors of all rounds, and
 * `ratio(a, b)`: the median of the rounds' own a/b ratios, with the rounds' ratios.
 */
export async function wrkInterleaved(urls, { rounds = 5, seconds = 1, connections = 50, threads = 2 } = {}) {
  const names = Object.keys(urls);
  const runs = Object.fromEntries(names.map((n) => [n, []]));
  for (let i = 0; i < rounds; i++)
    for (const name of i % 2 ? [...names].reverse() : names) runs[name].push(await wrk(urls[name], { connections, seconds, threads }));
  const of = Object.fromEntries(
    names.map((n) => [
      n,
      {
        rps: median(runs[n].map((r) => r.rps)),
        p50: median(runs[n].map((r) => r.p50)),
        // The median round's: a round of a second begins with wrk opening its connections, and
        // the worst round's p99 was that opening's (11–50 ms where 5-second runs saw 5–8).
        p99: median(runs[n].map((r) => r.p99)),
        errors: runs[n].reduce((sum, r) => sum + r.errors, 0),
      },
    ]),
  );
  const rounds_ = (a, b) => runs[a].map((r, i) => r.rps / runs[b][i].rps);
  return { of, runs, ratio: (a, b) => ({ median: median(rounds_(a, b)), rounds: rounds_(a, b) }) };
}

/** A read beside its two baselines (the hello world and the same bytes) in rounds (wrkInterleaved). */
export async function wrkRounds({ hello, same, product }, opts = {}) {
  const m = await wrkInterleaved({ hello, same, product }, opts);
  const ofHello = m.ratio('product', 'hello');
  const ofSame = m.ratio('product', 'same');
  return {
    ...m.of.product,
    helloRps: m.of.hello.rps,
    sameBytesRps: m.of.same.rps,
    sameBytesP99: m.of.same.p99,
    ofHello: ofHello.median,
    ofSameBytes: ofSame.median,
    roundsOfHello: ofHello.rounds,
    roundsOfSameBytes: ofSame.rounds,
  };
}

/** The status, raw headers and body one GET answers, as wrk would receive them (no accept-encoding). */
function capture(url, headers) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 200, rawHeaders: res.rawHeaders, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

/**
 * A bare node:http server that answers each captured path with exactly the bytes and headers the
 * product sent for it (its date header is written fresh, as every server does). `reads`: name →
 * { url, headers } on the product; gives name → url on the same-bytes server, and close().
 */
export async function sameBytesServer(port, reads) {
  const answers = new Map();
  const urls = {};
  for (const [name, { url, headers = {} }] of Object.entries(reads)) {
    const answer = await capture(url, headers);
    const pathKey = `/${encodeURIComponent(name)}`;
    const raw = [];
    for (let i = 0; i < answer.rawHeaders.length; i += 2)
      if (answer.rawHeaders[i].toLowerCase() !== 'date') raw.push(answer.rawHeaders[i], answer.rawHeaders[i + 1]);
    answers.set(pathKey, { ...answer, raw });
    urls[name] = `http://127.0.0.1:${port}${pathKey}`;
  }
  const server = http.createServer((req, res) => {
    const a = answers.get(req.url ?? '');
    if (!a) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(a.status, a.raw);
    res.end(a.body);
  });
  server.keepAliveTimeout = 72_000;
  await new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(undefined)));
  return {
    urls,
    bytes: Object.fromEntries([...answers].map(([k, a]) => [k, a.body.length])),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve(undefined));
      }),
  };
}
