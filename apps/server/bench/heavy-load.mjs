// The candidates' side of `npm run bench:heavy`, in a process of its own (so that a blocked event
// loop in the server delays the answers, not the sending): `CONNECTIONS` keep-alive clients each
// ask `URL` again as soon as answered, until SIGTERM, then print the latencies as JSON.
// `node heavy-load.mjs URL [CONNECTIONS] [TOKEN]`
import http from 'node:http';

const [url, connections = '4', token = ''] = process.argv.slice(2);
const agent = new http.Agent({ keepAlive: true, maxSockets: Number(connections) });
const latencies = [];
let errors = 0;
let stopping = false;

function ask() {
  return new Promise((resolve) => {
    const started = performance.now();
    const req = http.get(url, { agent, headers: token ? { authorization: `Bearer ${token}` } : {} }, (res) => {
      res.resume();
      res.on('end', () => {
        if (res.statusCode === 200) latencies.push(performance.now() - started);
        else errors++;
        resolve();
      });
    });
    req.on('error', () => {
      errors++;
      resolve();
    });
  });
}

async function client() {
  while (!stopping) await ask();
}

const clients = Array.from({ length: Number(connections) }, client);
process.send?.('ready');
process.on('SIGTERM', async () => {
  stopping = true;
  await Promise.all(clients);
  latencies.sort((a, b) => a - b);
  const at = (q) =>
    latencies.length === 0 ? null : Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] * 10) / 10;
  process.stdout.write(JSON.stringify({ n: latencies.length, errors, p50: at(0.5), p99: at(0.99), max: at(1) }));
  agent.destroy();
  process.exit(0);
});
