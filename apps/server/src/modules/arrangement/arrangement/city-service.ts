import { ErrorCode, type ChooseSiteCityInput, type SiteCityChoice, APPLICATION_STATES } from '@zhikaoyun/shared';
import { AppError, notFound } from '../../../lib/app-error';
import { clock } from '../../../lib/clock';
import type { ArrangementDeps } from './service';

/** The site city a candidate chooses, when the exam offers the choice, until seats are arranged. */
export function createSiteCityService(deps: ArrangementDeps) {
  const { repo, exams } = deps;

  const CHOICE_OFF = '本考试不提供考点城市选择，考点由考试机构统一安排';

  async function ownApplication(officeId: number, candidateId: number, examId: number) {
    const app = await repo.ownApplication(candidateId, examId);
    if (!app || app.office_id !== officeId) throw notFound('ownApplication');
    return app;
  }

  return {
    /** The cities of a published exam's sites, for candidates to choose from; refused when the exam does not offer the choice. */
    async siteCities(officeId: number, examId: number): Promise<{ cities: string[] }> {
      const exam = await exams.requirePublished(officeId, examId);
      if (exam.site_city_choice !== 1) throw new AppError(ErrorCode.Validation, CHOICE_OFF);
      return { cities: await repo.siteCities(examId) };
    },

    /** The candidate's city choice on one of their applications, with what they may choose. */
    async myCity(officeId: number, candidateId: number, examId: number): Promise<SiteCityChoice> {
      const app = await ownApplication(officeId, candidateId, examId);
      if (app.site_city_choice !== 1) return { enabled: false, cities: [], city: app.site_city, arranged: false };
      const [cities, arranged] = await Promise.all([repo.siteCities(app.exam_id), repo.examSeated(app.exam_id)]);
      return { enabled: true, cities, city: app.site_city, arranged };
    },

    /** Chooses (or changes) the site city of an approved or confirmed application, until seats are arranged. */
    async chooseCity(officeId: number, candidateId: number, input: ChooseSiteCityInput): Promise<{ city: string }> {
      const app = await ownApplication(officeId, candidateId, input.examId);
      if (app.site_city_choice !== 1) throw new AppError(ErrorCode.Validation, CHOICE_OFF);
      if (!APPLICATION_STATES[app.status].seatBound) throw new AppError(ErrorCode.Validation, '报名审核通过后才能选择考点城市');
      if (await repo.examSeated(app.exam_id))
        throw new AppError(ErrorCode.Validation, '考场已编排，考点城市不能再修改；如有特殊情况请联系考试机构');
      const cities = await repo.siteCities(app.exam_id);
      if (!cities.includes(input.city))
        throw new AppError(
          ErrorCode.Validation,
          cities.length > 0 ? `${input.city} 没有本考试的考点，请从 ${cities.join('、')} 中选择` : '本考试尚未设置考点城市，请稍后再选',
        );
      await repo.setSiteCity(app.id, input.city, clock.nowIso());
      return { city: input.city };
    },
  };
}
