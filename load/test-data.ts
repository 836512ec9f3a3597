// Data the k6 scripts bundle (k6 cannot run npm packages): message texts and respondents made with a seeded faker,
// in Russian and English, so the same build always ships the same data and multi-byte UTF-8 is exercised.
import { base, en, Faker, ru } from '@faker-js/faker';

export interface TestData {
  sendTexts: string[];
  respondents: Array<Record<string, string>>;
}

export function makeTestData(seed = 7, count = 200): TestData {
  const russian = new Faker({ locale: [ru, en, base], seed });
  const english = new Faker({ locale: [en, base], seed: seed + 1 });
  const sendTexts = Array.from({ length: count }, (_, i) => {
    const faker = i % 2 === 0 ? russian : english;
    return i % 10 === 9 ? faker.lorem.paragraph() : faker.lorem.sentence();
  });
  // Variables of the kind the spec names: a respondent's name and a contract number (§1.4).
  const respondents = Array.from({ length: 20 }, () => ({ name: russian.person.fullName(), contract: russian.string.numeric(8) }));
  return { sendTexts, respondents };
}
