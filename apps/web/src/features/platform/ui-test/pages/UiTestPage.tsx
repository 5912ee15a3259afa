import { Alert, App as AntApp, Button, Space } from 'antd';
import { useState } from 'react';
import { ContainerCard } from '../../../../components/ContainerCard';
import { ExamNameTag } from '../../../../components/ExamNameTag';
import { ExamTitle } from '../../../../components/ExamTitle';
import { GroupTitle } from '../../../../components/GroupTitle';
import { MobileBaseInfoCard } from '../../../../components/MobileBaseInfoCard';
import { MobileContainerCard } from '../../../../components/MobileContainerCard';
import { MobileUserInfoCard } from '../../../../components/MobileUserInfoCard';
import { DIALOG_WIDTH } from '@zhikaoyun/shared';
import { SAMPLE_USER as SAMPLE } from '../../../../lib/sample-user';
import { fetchExamDocuments } from '../../../../lib/api/documents';
import { fetchCaptcha, fetchMenu, fetchSystemSetting, fetchTreatyDesc } from '../../../../lib/api/system';

/** Labelled sample data for the component gallery; never shown outside this page. */

/** UI test page (/test): every shared layout piece of the spec, for review on a phone. */
export default function UiTestPage() {
  const { message, notification, modal } = AntApp.useApp();
  const [result, setResult] = useState<{ label: string; text: string; image?: string } | null>(null);
  // Each button makes one of the spec's calls through the real client: failures show its toasts.
  const calls: { label: string; run: () => Promise<{ text: string; image?: string }> }[] = [
    { label: '系统设置', run: async () => ({ text: (await fetchSystemSetting()).webname }) },
    { label: '验证码', run: async () => ({ text: '验证码已获取', image: (await fetchCaptcha()).image }) },
    { label: '菜单', run: async () => ({ text: (await fetchMenu()).map((m) => m.title).join('、') }) },
    { label: '考试文件', run: async () => ({ text: (await fetchExamDocuments(1)).map((d) => d.title).join('、') || '无文件' }) },
    { label: '注册协议', run: async () => ({ text: (await fetchTreatyDesc()).title }) },
  ];
  return (
    <div className="ui-test-page">
      <Alert type="info" showIcon title="组件预览页：以下内容为示例数据，仅用于检查界面。" className="ui-test-page__alert" />
      <MobileContainerCard title="考试名称">
        <ExamTitle name="示例：2026 年度事业单位公开招聘考试" subtitle="考试标题组件" />
        <ExamNameTag name="示例考试名称标签" />
      </MobileContainerCard>
      <GroupTitle extra={<span>附加内容</span>}>分组标题</GroupTitle>
      <MobileUserInfoCard userInfo={SAMPLE} />
      <MobileBaseInfoCard userInfo={SAMPLE} />
      <ContainerCard>
        <p>容器卡片：白色背景，居中，最大宽度约 80%。</p>
      </ContainerCard>
      <ContainerCard embedded>
        <p>嵌入模式容器卡片：通栏，无内边距。</p>
      </ContainerCard>
      <MobileContainerCard title="提示组件">
        <Space wrap>
          <Button onClick={() => void message.success('消息提示：3 秒后自动关闭')}>消息</Button>
          <Button onClick={() => notification.info({ title: '通知', description: '通知位于右上角，宽 365px。' })}>通知</Button>
          <Button onClick={() => modal.info({ title: '对话框', content: '对话框宽 446px。', width: DIALOG_WIDTH })}>对话框</Button>
        </Space>
      </MobileContainerCard>
      <MobileContainerCard title="接口调试">
        <Space wrap>
          {calls.map((c) => (
            <Button
              key={c.label}
              onClick={() => {
                setResult(null);
                c.run().then(
                  (r) => setResult({ label: c.label, ...r }),
                  () => undefined,
                );
              }}
            >
              {c.label}
            </Button>
          ))}
        </Space>
        {result && (
          <div className="ui-test-page__result" role="status">
            <strong>{result.label}：</strong>
            {result.text}
            {result.image && <img src={result.image} alt="验证码图片" width={120} height={44} />}
          </div>
        )}
      </MobileContainerCard>
    </div>
  );
}
