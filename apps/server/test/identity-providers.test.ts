import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  aliyunProvider,
  readSandboxRecords,
  sandboxProvider,
  tencentProvider,
  type IdentityConfig,
} from '../src/modules/access/identity/providers';
import { startStandInApi, type StandInApi, type StandInRequest } from './helpers/stand-in-api';

let api: StandInApi;
beforeAll(async () => {
  api = await startStandInApi();
});
afterAll(() => api.close());

const IDNO = '11010519980517001X';
const config = (over: Partial<IdentityConfig>): IdentityConfig => ({
  provider: 'sandbox',
  sandboxRecords: null,
  timeoutMs: 3000,
  tencent: null,
  aliyun: null,
  ...over,
});

describe('the sandbox', () => {
  it('reads idno,name records (header and blank lines skipped); without records every pair matches', async () => {
    const records = readSandboxRecords(`idno,name\n\n${IDNO.toLowerCase()},王晓红\r\nnot-a-number,某人\n`);
    expect([...records]).toEqual([[IDNO, '王晓红']]);
    expect(await sandboxProvider(null).checkRealName(IDNO, '任何人')).toBe('match');
  });
});

describe('Tencent FaceID adapter, through the common SDK to a stand-in endpoint', () => {
  const tencent = () =>
    tencentProvider(
      config({
        provider: 'tencent',
        tencent: { secretId: 'AKID-test', secretKey: 'secret', region: 'ap-guangzhou', endpoint: api.base, ruleId: '7' },
      }),
    );

  it('IdCardVerification, signed (TC3): 0 is a match, -1 a mismatch, anything else no answer', async () => {
    const p = await tencent();
    api.seen.length = 0;
    api.answer = () => ({ Response: { Result: '0', Description: '姓名和身份证号一致', RequestId: 'r1' } });
    expect(await p.checkRealName(IDNO, '王晓红')).toBe('match');
    const req = api.seen[0]!;
    expect(req.headers['x-tc-action']).toBe('IdCardVerification');
    expect(req.headers['x-tc-version']).toBe('2018-03-01');
    expect(req.headers.authorization).toMatch(
      /^TC3-HMAC-SHA256 Credential=AKID-test\/\d{4}-\d{2}-\d{2}\/[^/]+\/tc3_request, SignedHeaders=content-type;host, Signature=[0-9a-f]{64}$/,
    );
    expect(JSON.parse(req.body)).toEqual({ IdCard: IDNO, Name: '王晓红' });
    expect(JSON.stringify(req)).not.toContain('secret');
    api.answer = () => ({ Response: { Result: '-1', Description: '姓名和身份证号不一致', RequestId: 'r2' } });
    expect(await p.checkRealName(IDNO, '王小红')).toBe('mismatch');
    api.answer = () => ({ Response: { Result: '-4', Description: '非法身份证号', RequestId: 'r3' } });
    await expect(p.checkRealName(IDNO, '王晓红')).rejects.toThrow(/Result -4/);
    api.answer = () => ({ Response: { Error: { Code: 'AuthFailure.SignatureFailure', Message: '签名错误' }, RequestId: 'r4' } });
    await expect(p.checkRealName(IDNO, '王晓红')).rejects.toThrow(/AuthFailure/);
  });

  it('DetectAuth gives the H5 page and BizToken; GetDetectInfoEnhanced asks for the text result only', async () => {
    const p = await tencent();
    api.seen.length = 0;
    api.answer = () => ({ Response: { Url: 'https://h5.faceid.qq.com/api/web/login?token=BIZ-1', BizToken: 'BIZ-1', RequestId: 'r' } });
    const started = await p.startFace({
      idno: IDNO,
      name: '王晓红',
      token: 't',
      returnUrl: 'https://bm.example.cn/api/identity/callback?token=t',
      notifyUrl: 'https://bm.example.cn/api/identity/notify',
      orderNo: 'face-1',
      metaInfo: null,
    });
    expect(started).toEqual({ url: 'https://h5.faceid.qq.com/api/web/login?token=BIZ-1', ref: 'BIZ-1' });
    expect(JSON.parse(api.seen[0]!.body)).toEqual({
      RuleId: '7',
      IdCard: IDNO,
      Name: '王晓红',
      RedirectUrl: 'https://bm.example.cn/api/identity/callback?token=t',
      Extra: 'face-1',
    });
    api.seen.length = 0;
    api.answer = () => ({ Response: { Text: { ErrCode: 0, ErrMsg: '成功' }, RequestId: 'r' } });
    expect(await p.queryFace('BIZ-1')).toBe('passed');
    expect(api.seen[0]!.headers['x-tc-action']).toBe('GetDetectInfoEnhanced');
    expect(JSON.parse(api.seen[0]!.body)).toEqual({ BizToken: 'BIZ-1', RuleId: '7', InfoType: '1' });
    api.answer = () => ({ Response: { Text: { ErrCode: 1001, ErrMsg: '活体检测未通过' }, RequestId: 'r' } });
    expect(await p.queryFace('BIZ-1')).toBe('failed');
    api.answer = () => ({ Response: { Text: { ErrCode: null }, RequestId: 'r' } });
    expect(await p.queryFace('BIZ-1')).toBe('pending');
  });
});

describe('Alibaba Cloud cloudauth adapter, through the official SDK to a stand-in endpoint', () => {
  const aliyun = () =>
    aliyunProvider(
      config({
        provider: 'aliyun',
        aliyun: {
          accessKeyId: 'LTAI-test',
          accessKeySecret: 'secret',
          endpoint: api.base,
          sceneId: 1000001,
          webSdkUrl: 'https://o.alicdn.com/yd-cloudauth/cloudauth-cdn/jsvm_all.js',
        },
      }),
    );
  const field = (req: StandInRequest, name: string) =>
    new URLSearchParams(req.url.split('?')[1] ?? '').get(name) ?? new URLSearchParams(req.body).get(name);

  it('Id2MetaVerify, signed (ACS3): BizCode 1 a match, 2 a mismatch, 3 (no record) no answer', async () => {
    const p = await aliyun();
    api.seen.length = 0;
    api.answer = () => ({ Code: '200', Message: 'success', RequestId: 'r', ResultObject: { BizCode: '1' } });
    expect(await p.checkRealName(IDNO, '王晓红')).toBe('match');
    const req = api.seen[0]!;
    expect(req.headers['x-acs-action']).toBe('Id2MetaVerify');
    expect(req.headers.authorization).toMatch(/^ACS3-HMAC-SHA256 Credential=LTAI-test,/);
    expect(field(req, 'IdentifyNum')).toBe(IDNO);
    expect(field(req, 'UserName')).toBe('王晓红');
    expect(field(req, 'ParamType')).toBe('normal');
    expect(JSON.stringify(req)).not.toContain('secret');
    api.answer = () => ({ Code: '200', Message: 'success', RequestId: 'r', ResultObject: { BizCode: '2' } });
    expect(await p.checkRealName(IDNO, '王小红')).toBe('mismatch');
    api.answer = () => ({ Code: '200', Message: 'success', RequestId: 'r', ResultObject: { BizCode: '3' } });
    await expect(p.checkRealName(IDNO, '王晓红')).rejects.toThrow(/BizCode 3/);
    api.answer = () => ({ Code: '401', Message: '参数非法', RequestId: 'r' });
    await expect(p.checkRealName(IDNO, '王晓红')).rejects.toThrow(/401/);
  });

  it("InitFaceVerify carries the browser's own MetaInfo and our notify address; DescribeFaceVerify says T, F or not yet", async () => {
    const p = await aliyun();
    expect(p.webSdkUrl).toMatch(/jsvm_all\.js$/);
    const input = {
      idno: IDNO,
      name: '王晓红',
      token: 'token-of-this-check-0123456789',
      returnUrl: 'https://bm.example.cn/back',
      notifyUrl: 'https://bm.example.cn/api/identity/notify',
      orderNo: 'face-2',
    };
    // No MetaInfo from the browser: refused before any call (Aliyun refuses made-up values).
    api.seen.length = 0;
    await expect(p.startFace({ ...input, metaInfo: null })).rejects.toThrow(/MetaInfo/);
    expect(api.seen).toHaveLength(0);
    api.answer = () => ({
      Code: '200',
      Message: 'success',
      RequestId: 'r',
      ResultObject: { CertifyId: 'CID-1', CertifyUrl: 'https://m.alicdn.com/face?c=CID-1' },
    });
    const metaInfo = JSON.stringify({ bioMetaInfo: '4.1.0:2359296,0', deviceType: 'h5', ua: 'Mozilla/5.0 (iPhone) Mobile/15E148' });
    const started = await p.startFace({ ...input, metaInfo });
    expect(started).toEqual({ url: 'https://m.alicdn.com/face?c=CID-1', ref: 'CID-1' });
    const req = api.seen[0]!;
    expect(req.headers['x-acs-action']).toBe('InitFaceVerify');
    expect(field(req, 'SceneId')).toBe('1000001');
    expect(field(req, 'OuterOrderNo')).toBe('face-2');
    expect(field(req, 'CertNo')).toBe(IDNO);
    expect(field(req, 'ReturnUrl')).toBe('https://bm.example.cn/back');
    expect(field(req, 'MetaInfo')).toBe(metaInfo);
    expect(field(req, 'CallbackUrl')).toBe('https://bm.example.cn/api/identity/notify');
    expect(field(req, 'CallbackToken')).toBe('token-of-this-check-0123456789');
    api.seen.length = 0;
    api.answer = () => ({ Code: '200', Message: 'success', RequestId: 'r', ResultObject: { Passed: 'T', SubCode: '200' } });
    expect(await p.queryFace('CID-1')).toBe('passed');
    expect(api.seen[0]!.headers['x-acs-action']).toBe('DescribeFaceVerify');
    expect(field(api.seen[0]!, 'CertifyId')).toBe('CID-1');
    api.answer = () => ({ Code: '200', Message: 'success', RequestId: 'r', ResultObject: { Passed: 'F', SubCode: '205' } });
    expect(await p.queryFace('CID-1')).toBe('failed');
    api.answer = () => ({ Code: '200', Message: 'success', RequestId: 'r', ResultObject: {} });
    expect(await p.queryFace('CID-1')).toBe('pending');
  });
});
