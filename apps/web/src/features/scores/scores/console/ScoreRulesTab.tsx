import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { InterviewRatioRow, ScoreRules } from '@zhikaoyun/shared';
import { Alert, App, Button, Form, InputNumber, Radio, Space, Switch, Table } from 'antd';
import { useEffect } from 'react';
import { useSaveScoreRules } from './api';

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
export function ScoreRulesTab({ examId, rules }: { examId: number; rules: ScoreRules }) {
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
                    icon={<DeleteOutlined aria-hidden />}
                    aria-label="删除此档"
                    onClick={() => remove(f.name)}
                    disabled={fields.length === 1}
                  />
                </Space>
              ))}
              <p className="console-hint">人数上限留空的一档适用于其余岗位（须有且仅放在最后）。</p>
              <Button icon={<PlusOutlined aria-hidden />} onClick={() => add({ maxHeadcount: null, ratio: 2 })}>
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
