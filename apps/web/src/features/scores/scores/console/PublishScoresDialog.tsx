import type { ScoreRules } from '@zhikaoyun/shared';
import { Alert, App, DatePicker } from 'antd';
import type { Dayjs } from 'dayjs';
import { fromOfficePickerValue, officeNowPickerValue, toOfficePickerValue } from '../../../../components/console/office-time';
import { usePublishScores } from './api';

/**
 * 发布成绩 (or 修改查询时间 once published): a dialog with the query start and the optional 复核
 * window, warning when no pass line is set. Answers the function that opens it, and the mutation
 * (its pending state shows on the page's button).
 */
export function usePublishScoresDialog(examId: number | undefined, rules: ScoreRules | undefined) {
  const { message, modal } = App.useApp();
  const publish = usePublishScores();
  const open = () => {
    const initial = rules?.queryStart ? toOfficePickerValue(rules.queryStart) : officeNowPickerValue();
    let picked: Dayjs | null = initial;
    let review: [Dayjs, Dayjs] | null =
      rules?.reviewStart && rules.reviewEnd ? [toOfficePickerValue(rules.reviewStart), toOfficePickerValue(rules.reviewEnd)] : null;
    // No pass line (0 and no subject line): everyone with a score counts as 合格, which an office rarely means.
    const noPassLine = !rules?.publishedAt && rules?.passLine === 0 && rules.subjects.every((s) => s.passLine === null);
    modal.confirm({
      title: rules?.publishedAt ? '修改成绩查询时间' : '发布成绩',
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
            {rules?.publishedAt
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
      okText: rules?.publishedAt ? '保存' : noPassLine ? '不设合格线，仍然发布' : '发布',
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
                    rules?.publishedAt
                      ? `查询时间已更新${r.notified > 0 ? `，已通知 ${r.notified} 位考生` : ''}`
                      : `成绩已发布${r.notified > 0 ? `，已通知 ${r.notified} 位考生` : ''}`,
                  ),
              )
          : Promise.reject(new Error('请选择查询开始时间')),
    });
  };
  return { open, publish };
}
