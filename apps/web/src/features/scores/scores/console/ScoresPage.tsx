import { DeleteOutlined, DownloadOutlined, FilePdfOutlined, PlusOutlined, SendOutlined, UploadOutlined } from '@ant-design/icons';
import {
  SCORE_MARK_TEXT,
  availableLaterEvents,
  formatPoints,
  type InterviewRatioRow,
  type ScoreImportResult,
  type ScorePositionSummary,
  type ScoreRankingRow,
  type ScoreRules,
} from '@zhikaoyun/shared';
import { Alert, App, Button, DatePicker, Empty, Form, InputNumber, Popconfirm, Radio, Space, Switch, Table, Tabs, Tag, Upload } from 'antd';
import type { Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { useExamParam } from '../../../../components/console/console-exams';
import { ConsoleExamPicker } from '../../../../components/console/ConsoleExamPicker';
import { ImportPreview } from '../../../../components/console/ImportPreview';
import { fromOfficePickerValue, officeNowPickerValue, toOfficePickerValue } from '../../../../components/console/office-time';
import { intParam, useUrlParams } from '../../../../components/console/url-state';
import { formatDateTime } from '../../../../components/format';
import { useStaffSession } from '../../../../lib/staff-session';
import {
  useDownloadScoreTemplate,
  useExportInterviewListPdf,
  useExportScores,
  useFillVacancy,
  useImportScores,
  usePublishScores,
  useRecordGiveUp,
  useSaveScoreRules,
  useScoreRanking,
  useScoreRules,
} from './api';
import { ReviewsTab } from './ReviewsTab';
import './scores-console.css';

type Tab = 'ranking' | 'rules' | 'reviews';

interface RulesForm {
  subjects: { subjectId: number; name: string; fullMarks: number; weight: number; passLine: number | null }[];
  passLine: number;
  ratioKind: 'single' | 'table';
  interviewRatio: number;
  interviewRatioTable: InterviewRatioRow[];
  bonusEnabled: boolean;
}

const DEFAULT_TABLE: InterviewRatioRow[] = [
  { maxHeadcount: 5, ratio: 3 },
  { maxHeadcount: 10, ratio: 2.5 },
  { maxHeadcount: null, ratio: 2 },
];

function formOf(rules: ScoreRules): RulesForm {
  return {
    subjects: rules.subjects.map((s) => ({ ...s })),
    passLine: rules.passLine,
    ratioKind: rules.interviewRatioTable ? 'table' : 'single',
    interviewRatio: rules.interviewRatio ?? 3,
    interviewRatioTable: rules.interviewRatioTable ?? DEFAULT_TABLE,
    bonusEnabled: rules.bonusEnabled,
  };
}

/** 成绩规则: full marks, weights and lines per subject, the pass line, the interview ratio, bonus points. */
function RulesTab({ examId, rules }: { examId: number; rules: ScoreRules }) {
  const { message } = App.useApp();
  const save = useSaveScoreRules();
  const [form] = Form.useForm<RulesForm>();
  useEffect(() => form.setFieldsValue(formOf(rules)), [form, rules]);
  const ratioKind = Form.useWatch('ratioKind', form);

  if (rules.subjects.length === 0)
    return (
      <Alert type="warning" showIcon message="该考试还没有科目" description="请先在考场编排中添加考试科目（科目名称即成绩表中的列名）。" />
    );

  // The form registers only the editable cells of each row, so its values carry no subjectId: the
  // row's subject is the one the rules were loaded with, at the same index.
  const onFinish = (v: RulesForm) => {
    const subjects = rules.subjects.map((subject, i) => ({ subject, row: v.subjects[i] }));
    return save
      .mutateAsync({
        examId,
        subjects: subjects.map(({ subject, row }) => ({
          subjectId: subject.subjectId,
          fullMarks: row?.fullMarks ?? subject.fullMarks,
          weight: row?.weight ?? subject.weight,
        })),
        passLine: v.passLine,
        subjectPassLines: subjects.flatMap(({ subject, row }) =>
          row?.passLine === null || row?.passLine === undefined ? [] : [{ subjectId: subject.subjectId, passLine: row.passLine }],
        ),
        ...(v.ratioKind === 'table' ? { interviewRatioTable: v.interviewRatioTable } : { interviewRatio: v.interviewRatio }),
        bonusEnabled: v.bonusEnabled,
      })
      .then(() => void message.success('成绩规则已保存，总成绩与排名已重新计算'))
      .catch(() => undefined);
  };

  return (
    <Form form={form} layout="vertical" initialValues={formOf(rules)} onFinish={(v) => void onFinish(v)} className="scores-rules">
      <Form.List name="subjects">
        {(fields) => (
          <Table
            size="small"
            pagination={false}
            rowKey="key"
            dataSource={fields}
            className="scores-rules__subjects"
            columns={[
              { title: '科目', render: (_: unknown, f) => rules.subjects[f.name]?.name },
              {
                title: '满分',
                render: (_: unknown, f) => (
                  <Form.Item name={[f.name, 'fullMarks']} noStyle rules={[{ required: true, message: '请填写满分' }]}>
                    <InputNumber min={1} max={1000} aria-label={`${rules.subjects[f.name]?.name}满分`} />
                  </Form.Item>
                ),
              },
              {
                title: '权重',
                render: (_: unknown, f) => (
                  <Form.Item name={[f.name, 'weight']} noStyle rules={[{ required: true, message: '请填写权重' }]}>
                    <InputNumber min={0.001} max={10} aria-label={`${rules.subjects[f.name]?.name}权重`} />
                  </Form.Item>
                ),
              },
              {
                title: '科目合格线（可不填）',
                render: (_: unknown, f) => (
                  <Form.Item name={[f.name, 'passLine']} noStyle>
                    <InputNumber min={0} max={1000} placeholder="不设" aria-label={`${rules.subjects[f.name]?.name}合格线`} />
                  </Form.Item>
                ),
              },
            ]}
          />
        )}
      </Form.List>
      <p className="console-hint">总成绩 = Σ 各科成绩 × 权重（保留两位小数）+ 加分（计入时）。</p>
      <Space size={32} wrap align="start">
        <Form.Item label="合格分数线（总成绩）" name="passLine" rules={[{ required: true, message: '请填写合格分数线' }]}>
          <InputNumber min={0} style={{ width: 160 }} />
        </Form.Item>
        <Form.Item label="加分（少数民族、退役军人等）" name="bonusEnabled" valuePropName="checked">
          <Switch checkedChildren="计入总成绩" unCheckedChildren="不计入" />
        </Form.Item>
      </Space>
      <Form.Item label="进入面试的比例（每个招聘名额）" name="ratioKind">
        <Radio.Group
          options={[
            { value: 'single', label: '统一比例' },
            { value: 'table', label: '按招聘人数分档' },
          ]}
        />
      </Form.Item>
      {ratioKind === 'table' ? (
        <Form.List name="interviewRatioTable">
          {(fields, { add, remove }) => (
            <div className="scores-ratio-table">
              {fields.map((f, i) => (
                <Space key={f.key} align="baseline">
                  <span>招聘人数</span>
                  <Form.Item name={[f.name, 'maxHeadcount']} noStyle>
                    <InputNumber min={1} precision={0} placeholder="其余" aria-label={`第 ${i + 1} 档人数上限`} />
                  </Form.Item>
                  <span>人及以下，1 :</span>
                  <Form.Item name={[f.name, 'ratio']} noStyle rules={[{ required: true, message: '请填写比例' }]}>
                    <InputNumber min={0.1} max={20} aria-label={`第 ${i + 1} 档比例`} />
                  </Form.Item>
                  <Button
                    type="text"
                    icon={<DeleteOutlined />}
                    aria-label="删除此档"
                    onClick={() => remove(f.name)}
                    disabled={fields.length === 1}
                  />
                </Space>
              ))}
              <p className="console-hint">人数上限留空的一档适用于其余岗位（须有且仅放在最后）。</p>
              <Button icon={<PlusOutlined />} onClick={() => add({ maxHeadcount: null, ratio: 2 })}>
                添加一档
              </Button>
            </div>
          )}
        </Form.List>
      ) : (
        <Form.Item name="interviewRatio" rules={[{ required: true, message: '请填写面试比例' }]}>
          <InputNumber min={0.1} max={20} addonBefore="1 :" style={{ width: 180 }} aria-label="面试比例" />
        </Form.Item>
      )}
      <Button type="primary" htmlType="submit" loading={save.isPending}>
        保存规则
      </Button>
    </Form>
  );
}

function markText(row: ScoreRankingRow, subjectId: number) {
  const m = row.subjects.find((s) => s.subjectId === subjectId);
  if (!m) return '';
  return m.mark === 'score' ? formatPoints(m.score) : SCORE_MARK_TEXT[m.mark];
}

/** The ranking: every position's figures (short ones flagged), then the chosen position's list. */
function RankingTab({ examId, positionId, choose }: { examId: number; positionId: number | undefined; choose: (id: number) => void }) {
  const { message } = App.useApp();
  const ranking = useScoreRanking(examId, positionId);
  const giveUp = useRecordGiveUp();
  const fill = useFillVacancy();
  const role = useStaffSession((s) => s.staff?.role);
  // 记录放弃 where the machine after confirmation allows it: on the list, before a 资格复审 or interview result ends the way.
  const mayLeave = (r: ScoreRankingRow) => !!role && availableLaterEvents(r.laterStatus, role).includes('leaveList');
  const positions = ranking.data?.positions ?? [];
  const short = positions.filter((p) => p.short && p.ranked > 0);
  const chosen = positions.find((p) => p.positionId === positionId);
  return (
    <div>
      {short.length > 0 && (
        <Alert
          className="scores-alert"
          type="warning"
          showIcon
          message={`${short.length} 个岗位合格人数不足面试比例`}
          description={`${short.map((p) => `${p.code} ${p.name}（合格 ${p.qualified} 人，需 ${p.need} 人）`).join('；')}。这些岗位的合格考生全部进入面试，可视情况调整比例或合格线。`}
        />
      )}
      <Table<ScorePositionSummary>
        rowKey="positionId"
        size="small"
        loading={ranking.isLoading}
        dataSource={positions}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        rowClassName={(p) => (p.positionId === positionId ? 'is-chosen' : '')}
        onRow={(p) => ({ onClick: () => choose(p.positionId) })}
        columns={[
          { title: '岗位代码', dataIndex: 'code', width: 100 },
          { title: '岗位名称', dataIndex: 'name' },
          { title: '招聘人数', dataIndex: 'headcount', width: 90 },
          {
            title: '面试名额',
            width: 110,
            render: (_: unknown, p) => (p.cancelled ? <Tag>岗位已取消</Tag> : p.need),
          },
          { title: '参加排名', dataIndex: 'ranked', width: 90 },
          { title: '合格', dataIndex: 'qualified', width: 70 },
          { title: '进入面试', dataIndex: 'inList', width: 90 },
          { title: '最低分', render: (_: unknown, p) => formatPoints(p.cutOff), width: 90 },
          {
            title: '',
            width: 150,
            render: (_: unknown, p) => (
              <Space size={4}>
                {p.short && p.ranked > 0 && <Tag color="orange">不足比例</Tag>}
                <Button type="link" size="small" onClick={() => choose(p.positionId)}>
                  查看排名
                </Button>
              </Space>
            ),
          },
        ]}
      />
      {chosen && (
        <div className="console-card">
          <div className="console-toolbar">
            <h3 className="scores-position-title">
              {chosen.code} {chosen.name}：{chosen.ranked} 人参加排名，{chosen.inList} 人进入面试
              {chosen.gaveUp > 0 ? `，${chosen.gaveUp} 人放弃` : ''}
            </h3>
            {chosen.vacancies > 0 && (
              <Button
                type="primary"
                loading={fill.isPending}
                onClick={() =>
                  void fill
                    .mutateAsync({ examId, positionId: chosen.positionId })
                    .then((r) => void message.success(`已递补：${r.added.join('、')}`))
                    .catch(() => undefined)
                }
              >
                递补 {chosen.vacancies} 个名额
              </Button>
            )}
          </div>
          <Table<ScoreRankingRow>
            rowKey="ticketNo"
            size="small"
            loading={ranking.isFetching}
            dataSource={ranking.data?.list}
            pagination={{ pageSize: 50, hideOnSinglePage: true }}
            columns={[
              { title: '排名', dataIndex: 'rank', width: 70, render: (r: number | null) => r ?? '—' },
              { title: '准考证号', dataIndex: 'ticketNo', width: 130 },
              { title: '姓名', dataIndex: 'name', width: 100 },
              ...(ranking.data?.subjects ?? []).map((s) => ({
                title: s.name,
                key: `s${s.subjectId}`,
                width: 120,
                render: (_: unknown, r: ScoreRankingRow) => markText(r, s.subjectId),
              })),
              { title: '加分', dataIndex: 'bonus', width: 70, render: (b: number) => (b > 0 ? formatPoints(b) : '') },
              { title: '总成绩', dataIndex: 'total', width: 90, render: (t: number | null) => formatPoints(t) },
              {
                title: '结果',
                width: 120,
                render: (_: unknown, r: ScoreRankingRow) =>
                  r.status !== 'score' ? (
                    <Tag>{SCORE_MARK_TEXT[r.status]}</Tag>
                  ) : r.gaveUp ? (
                    <Tag color="default">放弃</Tag>
                  ) : r.inList ? (
                    <Tag color="green">{r.filled ? '递补进入面试' : '进入面试'}</Tag>
                  ) : r.qualified ? (
                    <Tag color="blue">合格</Tag>
                  ) : (
                    <Tag>未达合格线</Tag>
                  ),
              },
              {
                title: '操作',
                width: 110,
                render: (_: unknown, r: ScoreRankingRow) =>
                  mayLeave(r) ? (
                    <Popconfirm
                      title="记录该考生放弃面试？"
                      description="记录后其名额可由后续考生递补。"
                      okText="记录放弃"
                      cancelText="取消"
                      onConfirm={() =>
                        giveUp
                          .mutateAsync({ examId, ticketNo: r.ticketNo })
                          .then(() => void message.success(`已记录 ${r.name} 放弃面试`))
                          .catch(() => undefined)
                      }
                    >
                      <Button type="link" size="small">
                        记录放弃
                      </Button>
                    </Popconfirm>
                  ) : null,
              },
            ]}
          />
        </div>
      )}
      {!ranking.isLoading && positions.every((p) => p.ranked === 0) && <Empty description="尚未导入成绩" />}
    </div>
  );
}

/** 成绩管理: import with preview, rules, ranking per position, publishing with a query time, export. */
export default function ScoresPage() {
  const { message, modal } = App.useApp();
  const { examId, exams, chooseExam } = useExamParam();
  const [params, update] = useUrlParams();
  const asked = params.get('tab');
  const tab: Tab = asked === 'rules' || asked === 'reviews' ? asked : 'ranking';
  const positionId = intParam(params, 'positionId');
  const rules = useScoreRules(examId);
  const importScores = useImportScores();
  const publish = usePublishScores();
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
  const openPublish = () => {
    const initial = rules.data?.queryStart ? toOfficePickerValue(rules.data.queryStart) : officeNowPickerValue();
    let picked: Dayjs | null = initial;
    let review: [Dayjs, Dayjs] | null =
      rules.data?.reviewStart && rules.data.reviewEnd
        ? [toOfficePickerValue(rules.data.reviewStart), toOfficePickerValue(rules.data.reviewEnd)]
        : null;
    // No pass line (0 and no subject line): everyone with a score counts as 合格, which an office rarely means.
    const noPassLine = !rules.data?.publishedAt && rules.data?.passLine === 0 && rules.data.subjects.every((s) => s.passLine === null);
    modal.confirm({
      title: rules.data?.publishedAt ? '修改成绩查询时间' : '发布成绩',
      width: 520,
      content: (
        <div>
          {noPassLine && (
            <Alert
              className="scores-publish__warning"
              type="warning"
              showIcon
              message="尚未设置合格分数线（当前为 0）"
              description="发布后所有有成绩的考生都按“合格”处理，面试名单只按排名和比例确定，考生的成绩页上合格分数线显示为“未设置”。如需设置，请先取消并在“成绩规则”中保存合格分数线。"
            />
          )}
          <p>
            {rules.data?.publishedAt
              ? '考生将从新的时间起可查询成绩。'
              : '发布后考生从查询开始时间起可查询本人成绩，面试名单同时公示；持准考证的考生会收到站内消息。'}
          </p>
          <DatePicker
            showTime={{ format: 'HH:mm' }}
            format="YYYY-MM-DD HH:mm"
            defaultValue={initial}
            aria-label="成绩查询开始时间"
            onChange={(v) => {
              picked = v;
            }}
            style={{ width: '100%' }}
          />
          <p className="scores-publish__label">成绩复核申请时间（可不设；设置后考生可在此期间对每科申请一次复核）</p>
          <DatePicker.RangePicker
            showTime={{ format: 'HH:mm' }}
            format="YYYY-MM-DD HH:mm"
            defaultValue={review ?? undefined}
            aria-label="成绩复核申请时间"
            placeholder={['复核开始', '复核截止']}
            onChange={(v) => {
              review = v?.[0] && v[1] ? [v[0], v[1]] : null;
            }}
            style={{ width: '100%' }}
          />
        </div>
      ),
      okText: rules.data?.publishedAt ? '保存' : noPassLine ? '不设合格线，仍然发布' : '发布',
      cancelText: '取消',
      onOk: () =>
        picked && examId !== undefined
          ? publish
              .mutateAsync({
                examId,
                queryStart: fromOfficePickerValue(picked),
                ...(review ? { reviewStart: fromOfficePickerValue(review[0]), reviewEnd: fromOfficePickerValue(review[1]) } : {}),
              })
              .then(
                (r) =>
                  void message.success(
                    rules.data?.publishedAt
                      ? `查询时间已更新${r.notified > 0 ? `，已通知 ${r.notified} 位考生` : ''}`
                      : `成绩已发布${r.notified > 0 ? `，已通知 ${r.notified} 位考生` : ''}`,
                  ),
              )
          : Promise.reject(new Error('请选择查询开始时间')),
    });
  };
  const status = rules.data;
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
          <Button icon={<UploadOutlined />} loading={importScores.isPending && preview === null} disabled={examId === undefined}>
            导入成绩
          </Button>
        </Upload>
        <Button
          icon={<DownloadOutlined />}
          disabled={examId === undefined}
          loading={template.isPending}
          onClick={() => examId !== undefined && template.mutate({ examId, examName })}
        >
          下载模板
        </Button>
        <Button
          icon={<SendOutlined />}
          type="primary"
          disabled={examId === undefined || !status || status.imported === 0}
          loading={publish.isPending}
          onClick={openPublish}
        >
          {status?.publishedAt ? '修改查询时间' : '发布成绩'}
        </Button>
        <Button
          icon={<DownloadOutlined />}
          disabled={examId === undefined || !status || status.imported === 0}
          loading={exporting.isPending}
          onClick={() => examId !== undefined && exporting.mutate({ examId, examName })}
        >
          导出排名
        </Button>
        <Button
          icon={<FilePdfOutlined />}
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
            children: examId !== undefined && status ? <RulesTab examId={examId} rules={status} /> : null,
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
