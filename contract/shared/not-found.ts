// Identifiers that exist nowhere: large integers and fresh UUIDs from the test's seeded faker.
import type { Faker } from '@faker-js/faker';

export const unknownInteger = (faker: Faker) => 1_900_000_000 + faker.number.int(99_999_999);
export const unknownUuid = (faker: Faker) => faker.string.uuid();
