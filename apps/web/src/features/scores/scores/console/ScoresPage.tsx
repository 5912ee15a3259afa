import { DownloadOutlined, FilePdfOutlined, SendOutlined, UploadOutlined } from '@ant-design/icons';
import type { ScoreImportResult } from '@zhikaoyun/shared';
import { App, Button, Tabs, Upload } from 'antd';
import { useState } from 'react';
import { useExamParam } from '../../../../components/console/console-exams';
import { ConsoleExamPicker } from '../../../../components/console/ConsoleExamPicker';
import { ImportPreview } from '../../../../components/console/ImportPreview';
import { intParam, useUrlParams } from '../../../../components/console/url-state';
import { formatDateTime } from '../../../../components/format';
import { useDownloadScoreTemplate, useExportInterviewListPdf, useExportScores, useImportScores, useScoreRules } from './api';
import { usePublishScoresDialog } from './PublishScoresDialog';
import { RankingTab } from './RankingTab';
import { ReviewsTab } from './ReviewsTab';
import { ScoreRulesTab } from './ScoreRulesTab';
import './scores-console.css';

type Tab = 'ranking' | 'rules' | 'reviews';

/** 成绩管理: import with preview, rules, ranking per position, publishing with a query time, export. */
export default function ScoresPage() {
  const { message } = App.useApp();
  const { examId, exams, chooseExam } = useExamParam();
  const [params, update] = useUrlParams();
  const asked = params.get('tab');
  const tab: Tab = asked === 'rules' || asked === 'reviews' ? asked : 'ranking';
  const positionId = intParam(params, 'positionId');
  const rules = useScoreRules(examId);
  const importScores = useImportScores();
  const exporting = useExportScores();
  const exportingPdf = useExportInterviewListPdf();
  const template = useDownloadScoreTemplate();
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<ScoreImportResult | null>(null);
  const examName = exams.data?.find((e) => e.id === examId)?.name ?? String(examId);

  const check = (f: File) => {
    if (examId === undefined) return;
    setFile(f);
    void importScores
      .mutateAsync({ examId, dryRun: true, file: f })
      .then(setPreview)
      .catch(() => undefined);
  };
  const commit = () => {
    if (examId === undefined || !file) return;
    void importScores
      .mutateAsync({ examId, dryRun: false, file })
      .then((r) => {
        if (r.errors.length > 0) setPreview(r);
        else {
          setPreview(null);
          void message.success(`已导入 ${r.imported} 人的成绩`);
        }
      })
      .catch(() => undefined);
  };
  const status = rules.data;
  const publishDialog = usePublishScoresDialog(examId, status);
  return (
    <div>
      <div className="console-toolbar">
        <h2 className="console-title">成绩管理</h2>
        <ConsoleExamPicker exams={exams.data} loading={exams.isLoading} value={examId} onChange={chooseExam} />
        <Upload
          accept=".xlsx"
          showUploadList={false}
          disabled={examId === undefined}
          beforeUpload={(f) => {
            check(f);
            return false;
          }}
        >
          <Button
            icon={<UploadOutlined aria-hidden />}
            loading={importScores.isPending && preview === null}
            disabled={examId === undefined}
          >
            导入成绩
          </Button>
        </Upload>
        <Button
          icon={<DownloadOutlined aria-hidden />}
          disabled={examId === undefined}
          loading={template.isPending}
          onClick={() => examId !== undefined && template.mutate({ examId, examName })}
        >
          下载模板
        </Button>
        <Button
          icon={<SendOutlined aria-hidden />}
          type="primary"
          disabled={examId === undefined || !status || status.imported === 0}
          loading={publishDialog.publish.isPending}
          onClick={publishDialog.open}
        >
          {status?.publishedAt ? '修改查询时间' : '发布成绩'}
        </Button>
        <Button
          icon={<DownloadOutlined aria-hidden />}
          disabled={examId === undefined || !status || status.imported === 0}
          loading={exporting.isPending}
          onClick={() => examId !== undefined && exporting.mutate({ examId, examName })}
        >
          导出排名
        </Button>
        <Button
          icon={<FilePdfOutlined aria-hidden />}
          disabled={examId === undefined || !status || status.imported === 0}
          loading={exportingPdf.isPending}
          onClick={() => examId !== undefined && exportingPdf.mutate({ examId, examName })}
        >
          面试名单 PDF
        </Button>
      </div>
      {status && (
        <p className="console-hint" data-testid="scores-status">
          {status.imported > 0 ? `已导入 ${status.imported} 人的成绩（${formatDateTime(status.importedAt ?? '')}）` : '尚未导入成绩'}
          {status.publishedAt
            ? `；已发布，考生自 ${formatDateTime(status.queryStart ?? status.publishedAt)} 起可查询`
            : status.imported > 0
              ? '；尚未发布'
              : ''}
          。成绩表第一行为 准考证号、各科目名称（如 {status.subjects.map((s) => s.name).join('、') || '公共基础知识'}）
          {status.bonusEnabled ? '、加分' : '，可选 加分 列'}；有 姓名 列时须与准考证上的姓名一致；缺考、违纪的科目填写“缺考”“违纪”。
          可先“下载模板”（已列出全部持准考证的考生）填写后导入。
        </p>
      )}
      <Tabs
        activeKey={tab}
        onChange={(key) => update({ tab: key === 'ranking' ? null : key })}
        items={[
          {
            key: 'ranking',
            label: '排名与面试名单',
            children:
              examId === undefined ? null : (
                <RankingTab examId={examId} positionId={positionId} choose={(id) => update({ positionId: id })} />
              ),
          },
          {
            key: 'rules',
            label: '成绩规则',
            children: examId !== undefined && status ? <ScoreRulesTab examId={examId} rules={status} /> : null,
          },
          {
            key: 'reviews',
            label: '成绩复核',
            children: examId !== undefined && status ? <ReviewsTab examId={examId} rules={status} /> : null,
          },
        ]}
      />
      <ImportPreview result={preview} importing={importScores.isPending} onImport={commit} onClose={() => setPreview(null)} />
    </div>
  );
}
