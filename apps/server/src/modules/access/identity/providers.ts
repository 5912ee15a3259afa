import { readFileSync } from 'node:fs';
import { normalizeIdno } from '@zhikaoyun/shared';
import { cjsDefault } from '../../../lib/cjs-default';

/** The identity part of the configuration (config.ts reads it from the environment). */
export interface IdentityConfig {
  provider: 'sandbox' | 'tencent' | 'aliyun';
  /** The sandbox's records (CSV of idno,name); null: every pair matches. */
  sandboxRecords: string | null;
  /** A real-name answer later than this creates the account with its check pending. */
  timeoutMs: number;
  tencent: { secretId: string; secretKey: string; region: string; endpoint: string; ruleId: string } | null;
  aliyun: { accessKeyId: string; accessKeySecret: string; endpoint: string; sceneId: number; webSdkUrl: string } | null;
}

export type RealNameAnswer = 'match' | 'mismatch';
export type FaceAnswer = 'passed' | 'failed' | 'pending';

export interface FaceStart {
  /** The provider's H5 page the candidate opens. */
  url: string;
  /** The provider's reference of this check (BizToken, CertifyId), to ask about it later. */
  ref: string;
}

/** What a face check's start needs and where its answers go. */
export interface FaceStartInput {
  idno: string;
  name: string;
  /** Ours: in the return link, and the notify's proof (Aliyun's CallbackToken). */
  token: string;
  /** Where the provider's page sends the candidate back. */
  returnUrl: string;
  /** Where the provider's server tells ours that a check ended (where it supports one). */
  notifyUrl: string;
  orderNo: string;
  /** The candidate's browser's MetaInfo from the provider's web SDK (Aliyun); null where none is needed. */
  metaInfo: string | null;
}

/**
 * One identity provider. `checkRealName` throws when the provider cannot answer (network, quota,
 * its own fault): the caller then keeps the check pending and asks again later.
 */
export interface IdentityProvider {
  readonly name: IdentityConfig['provider'];
  checkRealName(idno: string, name: string): Promise<RealNameAnswer>;
  /**
   * A provider whose face check needs the candidate's browser described by its own web SDK first
   * (Aliyun's getMetaInfo()): the script's address. Null: the check starts at once.
   */
  readonly webSdkUrl: string | null;
  startFace(p: FaceStartInput): Promise<FaceStart>;
  queryFace(ref: string): Promise<FaceAnswer>;
}

/** A provider's refusal or fault, with its code, for the log and the check's `reason`. */
export class IdentityProviderError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(`${code}: ${message}`);
  }
}

/** Reads the sandbox's records: one `idno,name` a line; a header line and blank lines are skipped. */
export function readSandboxRecords(text: string): Map<string, string> {
  const records = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const [idno, name] = line.split(',').map((s) => s.trim());
    if (!idno || !name || !/^\d{17}[\dXx]$/.test(idno)) continue;
    records.set(normalizeIdno(idno), name);
  }
  return records;
}

/**
 * The default provider: no network. With records, a pair not among them is a mismatch; without,
 * every pair matches. Its face check is the page at /api/identity/sandbox/face, whose buttons
 * answer as a provider's callback would.
 */
export function sandboxProvider(recordsPath: string | null): IdentityProvider {
  const records = recordsPath === null ? null : readSandboxRecords(readFileSync(recordsPath, 'utf8'));
  return {
    name: 'sandbox',
    webSdkUrl: null,
    checkRealName(idno, name) {
      if (records === null) return Promise.resolve('match');
      return Promise.resolve(records.get(normalizeIdno(idno)) === name ? 'match' : 'mismatch');
    },
    startFace({ token, orderNo }) {
      return Promise.resolve({ url: `/api/identity/sandbox/face?token=${encodeURIComponent(token)}`, ref: `sandbox:${orderNo}` });
    },
    // The sandbox's result arrives only through its page (the callback); asked, it knows nothing more.
    queryFace: () => Promise.resolve('pending'),
  };
}

/** An endpoint: a host name (HTTPS), or an `http://host:port` URL of a stand-in on this machine. */
function endpointOf(value: string): { host: string; protocol: 'http' | 'https' } {
  const m = /^(https?):\/\/([^/]+)\/?$/.exec(value);
  return m ? { host: m[2]!, protocol: m[1] as 'http' | 'https' } : { host: value, protocol: 'https' };
}

function errorOf(err: unknown): IdentityProviderError {
  if (err instanceof IdentityProviderError) return err;
  const e = (typeof err === 'object' && err !== null ? err : {}) as { code?: unknown; message?: unknown };
  return new IdentityProviderError(typeof e.code === 'string' ? e.code : 'error', typeof e.message === 'string' ? e.message : String(err));
}

/**
 * Tencent Cloud FaceID (2018-03-01) through the common SDK's client (there is no FaceID-only
 * package): IdCardVerification for 二要素, DetectAuth → GetDetectInfoEnhanced for the H5 check.
 */
export async function tencentProvider(cfg: IdentityConfig): Promise<IdentityProvider> {
  const t = cfg.tencent;
  if (!t) throw new Error('IDENTITY_PROVIDER=tencent needs TENCENT_FACEID_SECRET_ID, TENCENT_FACEID_SECRET_KEY and TENCENT_FACEID_RULE_ID');
  const { AbstractClient } = await import('tencentcloud-sdk-nodejs-common');
  const endpoint = endpointOf(t.endpoint);
  const client = new AbstractClient(endpoint.host, '2018-03-01', {
    credential: { secretId: t.secretId, secretKey: t.secretKey },
    region: t.region,
    profile: { httpProfile: { endpoint: endpoint.host, protocol: `${endpoint.protocol}://`, reqTimeout: 10 } },
  });
  const call = async <T>(action: string, body: Record<string, unknown>): Promise<T> => {
    try {
      return (await client.request(action, body)) as T;
    } catch (err) {
      throw errorOf(err);
    }
  };
  return {
    name: 'tencent',
    // DetectAuth needs no description of the browser, and has no server notify: its result comes
    // back with the candidate (RedirectUrl) or by the background query.
    webSdkUrl: null,
    async checkRealName(idno, name) {
      const res = await call<{ Result?: string; Description?: string }>('IdCardVerification', { IdCard: idno, Name: name });
      // '0' 一致, '-1' 不一致; the others (no record, service busy) are no answer about the person.
      if (res.Result === '0') return 'match';
      if (res.Result === '-1') return 'mismatch';
      throw new IdentityProviderError(`Result ${res.Result ?? '?'}`, res.Description ?? '');
    },
    async startFace({ idno, name, returnUrl, orderNo }) {
      const res = await call<{ Url?: string; BizToken?: string }>('DetectAuth', {
        RuleId: t.ruleId,
        IdCard: idno,
        Name: name,
        RedirectUrl: returnUrl,
        Extra: orderNo,
      });
      if (!res.Url || !res.BizToken) throw new IdentityProviderError('DetectAuth', '未返回核验链接');
      return { url: res.Url, ref: res.BizToken };
    },
    async queryFace(ref) {
      // InfoType 1: the text result only, never the photo or video of the check.
      const res = await call<{ Text?: { ErrCode?: number | null } }>('GetDetectInfoEnhanced', {
        BizToken: ref,
        RuleId: t.ruleId,
        InfoType: '1',
      });
      const code = res.Text?.ErrCode;
      if (code === null || code === undefined) return 'pending';
      return code === 0 ? 'passed' : 'failed';
    },
  };
}

/** Alibaba Cloud ID verification (cloudauth 2019-03-07): Id2MetaVerify, InitFaceVerify → DescribeFaceVerify. */
export async function aliyunProvider(cfg: IdentityConfig): Promise<IdentityProvider> {
  const a = cfg.aliyun;
  if (!a)
    throw new Error(
      'IDENTITY_PROVIDER=aliyun needs ALIYUN_CLOUDAUTH_ACCESS_KEY_ID, ALIYUN_CLOUDAUTH_ACCESS_KEY_SECRET and ALIYUN_CLOUDAUTH_SCENE_ID',
    );
  const sdk = await import('@alicloud/cloudauth20190307');
  const { $OpenApiUtil } = await import('@alicloud/openapi-core');
  const Client = cjsDefault(sdk.default);
  const endpoint = endpointOf(a.endpoint);
  const client = new Client(
    new $OpenApiUtil.Config({
      accessKeyId: a.accessKeyId,
      accessKeySecret: a.accessKeySecret,
      endpoint: endpoint.host,
      protocol: endpoint.protocol,
    }),
  );
  const ok = (body: { code?: string; message?: string } | undefined) => {
    if (body?.code !== '200') throw new IdentityProviderError(body?.code ?? 'unknown', body?.message ?? '');
  };
  return {
    name: 'aliyun',
    webSdkUrl: a.webSdkUrl,
    async checkRealName(idno, name) {
      let body;
      try {
        body = (await client.id2MetaVerify(new sdk.Id2MetaVerifyRequest({ identifyNum: idno, userName: name, paramType: 'normal' }))).body;
      } catch (err) {
        throw errorOf(err);
      }
      ok(body);
      // BizCode '1' 一致, '2' 不一致; '3' (no record) is no answer about the person.
      const code = body?.resultObject?.bizCode;
      if (code === '1') return 'match';
      if (code === '2') return 'mismatch';
      throw new IdentityProviderError(`BizCode ${code ?? '?'}`, '查无此身份证号码记录');
    },
    async startFace({ idno, name, token, returnUrl, notifyUrl, orderNo, metaInfo }) {
      // Aliyun refuses a made-up MetaInfo ("不要使用硬编码的测试数据"): only the browser's own.
      if (!metaInfo) throw new IdentityProviderError('MetaInfo', '缺少浏览器环境信息（getMetaInfo）');
      let body;
      try {
        body = (
          await client.initFaceVerify(
            new sdk.InitFaceVerifyRequest({
              sceneId: a.sceneId,
              outerOrderNo: orderNo,
              productCode: 'ID_PRO',
              certType: 'IDENTITY_CARD',
              certName: name,
              certNo: idno,
              returnUrl,
              metaInfo,
              // Aliyun calls this when the check ends, adding certifyId, passed and this token;
              // the token proves the call is about our check, and the result is then asked for.
              callbackUrl: notifyUrl,
              callbackToken: token,
            }),
          )
        ).body;
      } catch (err) {
        throw errorOf(err);
      }
      ok(body);
      const r = body?.resultObject;
      if (!r?.certifyId || !r.certifyUrl) throw new IdentityProviderError('InitFaceVerify', '未返回核验链接');
      return { url: r.certifyUrl, ref: r.certifyId };
    },
    async queryFace(ref) {
      let body;
      try {
        body = (await client.describeFaceVerify(new sdk.DescribeFaceVerifyRequest({ sceneId: a.sceneId, certifyId: ref }))).body;
      } catch (err) {
        throw errorOf(err);
      }
      ok(body);
      const passed = body?.resultObject?.passed;
      if (passed === 'T') return 'passed';
      if (passed === 'F') return 'failed';
      return 'pending';
    },
  };
}

export async function createIdentityProvider(cfg: IdentityConfig): Promise<IdentityProvider> {
  switch (cfg.provider) {
    case 'tencent':
      return tencentProvider(cfg);
    case 'aliyun':
      return aliyunProvider(cfg);
    case 'sandbox':
      return sandboxProvider(cfg.sandboxRecords);
  }
}
