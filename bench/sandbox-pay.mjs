// Payment notifies exactly as the sandbox provider (and WeChat Pay) sends them, for orders written
// straight into a bench server's SQLite database: used by bench:payments and bench:soak.
import { createCipheriv, createPrivateKey, createPublicKey, createSign, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';

/** `dir`: the server's database folder, where the sandbox keeps its keys (sandbox-pay.json). */
export function sandboxPayments(dir, base, { fee = 5000, concurrency = 64 } = {}) {
  const saved = JSON.parse(readFileSync(path.join(dir, 'sandbox-pay.json'), 'utf8'));
  const privateKey = createPrivateKey(saved.privateKey);
  const der = createPublicKey(privateKey).export({ type: 'spki', format: 'der' });
  const serial = `SANDBOX${Buffer.from(der).subarray(-12).toString('hex').toUpperCase()}`;
  const now = () => new Date().toISOString();

  /** `count` approved applications of a fee exam with one unpaid order each, named `tag…`. */
  function makeOrders(db, count, tag) {
    const exam = db.prepare('select id, office_id from exam where fee > 0 order by id desc limit 1').get();
    if (!exam) throw new Error('no exam with a fee: is the demo seed there?');
    const addCandidate = db.prepare(
      `insert into candidate (office_id, idno_index, idno_enc, name, birthday, sex, password_hash, mobile, email, question, answer_enc, created_at, updated_at)
       values (?, ?, 'x', '压测考生', '1995-01-01', '男', 'x', '13900000000', '', 'q', 'x', ?, ?)`,
    );
    const addApplication = db.prepare(
      `insert into application (office_id, exam_id, candidate_id, position_id, status, form, reason, created_at, updated_at)
       values (?, ?, ?, null, 'approved', '{}', '', ?, ?)`,
    );
    const addOrder = db.prepare(
      `insert into payment_order (office_id, exam_id, application_id, order_no, provider, amount, status, pay_url, created_at, expires_at)
       values (?, ?, ?, ?, 'sandbox', ?, 'unpaid', '', ?, ?)`,
    );
    const orders = [];
    db.transaction(() => {
      for (let i = 0; i < count; i++) {
        const at = now();
        const c = addCandidate.run(exam.office_id, randomBytes(16).toString('hex'), at, at);
        const a = addApplication.run(exam.office_id, exam.id, c.lastInsertRowid, at, at);
        const orderNo = `${tag}${String(i).padStart(7, '0')}${randomBytes(3).toString('hex').toUpperCase()}`;
        addOrder.run(exam.office_id, exam.id, a.lastInsertRowid, orderNo, fee, at, new Date(Date.now() + 3_600_000).toISOString());
        orders.push(orderNo);
      }
    })();
    return orders;
  }

  /** A notify as the sandbox sends it: RSA-SHA256 over ts\nnonce\nbody\n, AES-256-GCM resource. */
  function notify(orderNo) {
    const nonce = randomBytes(16).toString('hex');
    const iv = nonce.slice(0, 12);
    const plain = JSON.stringify({
      out_trade_no: orderNo,
      transaction_id: `T${orderNo}`,
      trade_state: 'SUCCESS',
      success_time: new Date().toISOString().replace('Z', '+00:00'),
      amount: { total: fee, payer_total: fee, currency: 'CNY' },
    });
    const cipher = createCipheriv('aes-256-gcm', Buffer.from(saved.apiV3Key), Buffer.from(iv));
    cipher.setAAD(Buffer.from('transaction'));
    const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]).toString('base64');
    const body = JSON.stringify({
      id: nonce,
      event_type: 'TRANSACTION.SUCCESS',
      resource_type: 'encrypt-resource',
      resource: { algorithm: 'AEAD_AES_256_GCM', ciphertext, associated_data: 'transaction', nonce: iv },
    });
    const ts = String(Math.floor(Date.now() / 1000));
    const signature = createSign('RSA-SHA256').update(`${ts}\n${nonce}\n${body}\n`).sign(privateKey, 'base64');
    return {
      body,
      headers: {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        'wechatpay-timestamp': ts,
        'wechatpay-nonce': nonce,
        'wechatpay-serial': serial,
        'wechatpay-signature': signature,
      },
    };
  }

  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  /** Sends one notify; true when the server acknowledged it (after its commit). */
  const send = (n) =>
    new Promise((resolve) => {
      const req = http.request(`${base}/api/payment/notify/sandbox`, { method: 'POST', agent, headers: n.headers }, (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve(res.statusCode === 200 && text.includes('SUCCESS')));
      });
      req.on('error', () => resolve(false));
      req.end(n.body);
    });
  return { makeOrders, notify, send, close: () => agent.destroy() };
}
