import { DownloadOutlined, SendOutlined, UploadOutlined } from '@ant-design/icons';
import {
  formatPoints,
  INTERVIEW_COLUMN,
  LATER_STAGES,
  LATER_STATES,
  laterTransitionOf,
  offeredResults,
  resultEvent,
  STAGE_LIST_TEXT,
  STAGE_OUTCOME_TEXT,
  type LaterStage,
  type ResultOutcome,
  type ResultStage,
  type ScoreImportResult,
  type StageBoard,
  type StageRow,
} from '@zhikaoyun/shared';
import { App, Button, Card, Empty, InputNumber, Select, Space, Table, Tag, Upload } from 'antd';
import { useEffect, useState } from 'react';
import { ConsoleExamPicker } from '../../../../components/console/ConsoleExamPicker';
import { useExamParam } from '../../../../components/console/console-exams';
import { ImportPreview } from '../../../../components/console/ImportPreview';
import { formatDateTime } from '../../../../components/format';
import { useStaffSession } from '../../../../lib/staff-session';
import './stages-console.css';
import {
  useDownloadInterviewTemplate,
  useImportInterviewScores,
  usePublishStage,
  useRecordStageResults,
  useSaveStageWeight,
  useStageBoard,
} from './api';

/** 综合成绩 = 笔试 × (100 − w)% + 面试 × w%: the weight, saved on its own. */
function WeightEditor({ examId, weight }: { examId: number; weight: number }) {
  const { message } = App.useApp();
  const save = useSaveStageWeight();
  const [value, setValue] = useState<number | null>(weight);
  useEffect(() => setValue(weight), [weight]);
  return (
    <Space wrap>
      <span>综合成绩 = 笔试成绩 × {100 - (value ?? weight)}% + 面试成绩 ×</span>
      <InputNumber aria-label="面试成绩所占比例" min={0} max={100} precision={0} value={value} onChange={setValue} suffix="%" />
      <Button
        disabled={value === null || value === weight}
        loading={save.isPending}
        onClick={() =>
          value !== null &&
          save.mutate({ examId, interviewWeight: value }, { onSuccess: () => void message.success('比例已保存，综合成绩已重新计算') })
        }
      >
        保存比例
      </Button>
    </Space>
  );
}

/**
 * A 资格复审 or 体检 result, saved as soon as it is chosen. It offers only the results the machine
 * after confirmation allows from the row's state for this staff member; one that ends the
 * candidate's way (不合格, 放弃) cannot be changed afterwards, so it is confirmed first.
 */
function ResultSelect({ examId, stage, row }: { examId: number; stage: ResultStage; row: StageRow }) {
  const { modal } = App.useApp();
  const record = useRecordStageResults();
  const role = useStaffSession((s) => s.staff?.role);
  const value = stage === 'qualification' ? row.qualification : row.medical;
  // What the machine allows besides the result already recorded (choosing that again changes nothing).
  const offered = role ? offeredResults(row.state, stage, role).filter((o) => o !== value) : [];
  const options = [...new Set([...(value ? [value] : []), ...offered])].map((o) => ({
    value: o,
    label: STAGE_OUTCOME_TEXT[o],
    disabled: !offered.includes(o),
  }));
  const save = (outcome: ResultOutcome) => record.mutate({ examId, stage, results: [{ ticketNo: row.ticketNo, outcome }] });
  const choose = (outcome: ResultOutcome) => {
    const t = laterTransitionOf(resultEvent(stage, outcome));
    if (!LATER_STATES[t.to].final) return save(outcome);
    modal.confirm({
      title: `记录${row.name}「${t.label}」？`,
      content: '记录后该考生不再参加后续环节，结果不能更改。',
      okText: '记录',
      cancelText: '取消',
      onOk: () => save(outcome),
    });
  };
  return (
    <Select
      aria-label={`${row.name}的${stage === 'qualification' ? '资格复审' : '体检'}结果`}
      size="small"
      style={{ width: 96 }}
      placeholder="未记录"
      value={value ?? undefined}
      options={options}
      disabled={offered.length === 0}
      loading={record.isPending}
      onChange={choose}
    />
  );
}

function PositionTable({ examId, position }: { examId: number; position: StageBoard['positions'][number] }) {
  return (
    <Card size="small" title={`${position.code} ${position.name}（招聘 ${position.headcount} 人）`} className="stages-position">
      <Table<StageRow>
        size="small"
        rowKey="applicationId"
        pagination={false}
        dataSource={position.rows}
        scroll={{ x: 900 }}
        columns={[
          { title: '准考证号', dataIndex: 'ticketNo', width: 130 },
          { title: '姓名', dataIndex: 'name', width: 90 },
          { title: '笔试', dataIndex: 'written', width: 70, render: (v: number) => formatPoints(v) },
          {
            title: '资格复审',
            width: 120,
            render: (_, r) => <ResultSelect examId={examId} stage="qualification" row={r} />,
          },
          {
            title: '面试',
            width: 80,
            render: (_, r) =>
              r.interview === null
                ? '—'
                : r.interview.outcome === 'score'
                  ? formatPoints(r.interview.score)
                  : STAGE_OUTCOME_TEXT[r.interview.outcome],
          },
          { title: '综合成绩', dataIndex: 'combined', width: 90, render: (v: number | null) => formatPoints(v) },
          { title: '排名', dataIndex: 'finalRank', width: 60, render: (v: number | null) => v ?? '—' },
          {
            title: '体检',
            width: 120,
            render: (_, r) =>
              r.inMedical ? <ResultSelect examId={examId} stage="medical" row={r} /> : <span className="console-muted">未进入</span>,
          },
          { title: '拟录用', width: 80, render: (_, r) => (r.hired ? <Tag color="green">拟录用</Tag> : '—') },
        ]}
      />
    </Card>
  );
}

/**
 * 后续环节: the interview list's entrants through 资格复审, 面试 (imported from Excel), the combined
 * score and final ranking, 体检 and 拟录用; each stage published (公示) on its own.
 */
function StagesBoard({ examId, examName }: { examId: number; examName: string }) {
  const { message, modal } = App.useApp();
  const board = useStageBoard(examId);
  const importing = useImportInterviewScores();
  const template = useDownloadInterviewTemplate();
  const publish = usePublishStage();
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<ScoreImportResult | null>(null);
  const data = board.data;

  const check = (f: File) => {
    setFile(f);
    void importing
      .mutateAsync({ examId, dryRun: true, file: f })
      .then(setPreview)
      .catch(() => undefined);
  };
  const commit = () => {
    if (!file) return;
    void importing
      .mutateAsync({ examId, dryRun: false, file })
      .then((r) => {
        // Changed between the check and the import (another sheet, a 资格复审 result): the rows again.
        if (r.errors.length > 0) setPreview(r);
        else {
          setPreview(null);
          void message.success(`已导入 ${r.imported} 人的面试成绩`);
        }
      })
      .catch(() => undefined);
  };
  const confirmPublish = (stage: LaterStage) =>
    modal.confirm({
      title: `公布${STAGE_LIST_TEXT[stage]}？`,
      content: '公布后名单对外公示（姓名部分隐去），考生可在成绩查询中看到本人结果；之后的修改再次公布即更新。',
      okText: '公布',
      cancelText: '取消',
      onOk: () =>
        publish.mutateAsync({ examId, stage }).then((r) => void message.success(`${STAGE_LIST_TEXT[stage]}已公布（${r.listed} 人）`)),
    });

  if (!data) return board.isLoading ? null : <Empty description="无法读取后续环节" />;
  if (data.positions.length === 0)
    return <Empty description="面试名单产生后（导入成绩并设置规则），在此记录资格复审、导入面试成绩、确定体检与拟录用人员" />;
  return (
    <div className="stages-tab">
      <div className="console-toolbar">
        <WeightEditor examId={examId} weight={data.interviewWeight} />
        <Upload
          accept=".xlsx"
          showUploadList={false}
          beforeUpload={(f) => {
            check(f);
            return false;
          }}
        >
          <Button icon={<UploadOutlined aria-hidden />} loading={importing.isPending && preview === null}>
            导入面试成绩
          </Button>
        </Upload>
        <Button icon={<DownloadOutlined aria-hidden />} loading={template.isPending} onClick={() => template.mutate({ examId, examName })}>
          下载模板
        </Button>
      </div>
      <p className="console-hint">
        面试成绩表第一行为 准考证号、{INTERVIEW_COLUMN}（满分 100；缺考、违纪填写“缺考”“违纪”），只含资格复审未被取消资格的面试名单考生。
        可加 姓名 列（须与准考证上的姓名一致）；可先“下载模板”（已列出这些考生）填写后导入。
        体检人员按综合成绩排名每个招聘名额一人（并列同进）；体检不合格或放弃的，由排名其后的考生依次递补。
      </p>
      <Space wrap className="stages-publish">
        {LATER_STAGES.map((stage) => (
          <Button
            key={stage}
            icon={<SendOutlined aria-hidden />}
            loading={publish.isPending && publish.variables.stage === stage}
            onClick={() => confirmPublish(stage)}
          >
            公布{STAGE_LIST_TEXT[stage]}
            {data.published[stage] ? <Tag color="green">已公布 {formatDateTime(data.published[stage])}</Tag> : <Tag>未公布</Tag>}
          </Button>
        ))}
      </Space>
      {data.positions.map((p) => (
        <PositionTable key={p.positionId} examId={examId} position={p} />
      ))}
      <ImportPreview noun="面试成绩" result={preview} importing={importing.isPending} onImport={commit} onClose={() => setPreview(null)} />
    </div>
  );
}

/** 后续环节: after the written exam's interview list, per exam. */
export default function StagesPage() {
  const { examId, exams, chooseExam } = useExamParam();
  return (
    <div>
      <div className="console-toolbar">
        <h2 className="console-title">后续环节</h2>
        <ConsoleExamPicker exams={exams.data} loading={exams.isLoading} value={examId} onChange={chooseExam} />
      </div>
      {examId === undefined ? (
        <Empty description="请选择考试" />
      ) : (
        <StagesBoard examId={examId} examName={exams.data?.find((e) => e.id === examId)?.name ?? String(examId)} />
      )}
    </div>
  );
}
