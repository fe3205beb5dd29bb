"""factory_boy factories shared by the test suite."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import factory
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group

from tournaments.models import Player, Registration, Tournament
from tournaments.roles import roles_ensure


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.org")
    password = factory.django.Password("correct-horse-battery")

    @factory.post_generation
    def groups(self, create: bool, extracted: list[str] | None, **kwargs: object) -> None:
        if create and extracted:
            roles_ensure()
            self.groups.add(*Group.objects.filter(name__in=extracted))


class OrganiserFactory(UserFactory):
    username = factory.Sequence(lambda n: f"organiser{n}")

    @factory.post_generation
    def groups(self, create: bool, extracted: list[str] | None, **kwargs: object) -> None:
        if create:
            roles_ensure()
            self.groups.add(*Group.objects.filter(name__in=extracted or ["organiser"]))


class RefereeFactory(UserFactory):
    username = factory.Sequence(lambda n: f"referee{n}")

    @factory.post_generation
    def groups(self, create: bool, extracted: list[str] | None, **kwargs: object) -> None:
        if create:
            roles_ensure()
            self.groups.add(*Group.objects.filter(name__in=extracted or ["referee"]))


RUSSIAN_NAMES = [
    "Иванов Иван",
    "Петров Пётр",
    "Сидоров Сергей",
    "Кузнецов Алексей",
    "Смирнов Дмитрий",
    "Попов Андрей",
    "Васильев Михаил",
    "Соколов Николай",
    "Михайлов Артём",
    "Новиков Егор",
    "Фёдоров Илья",
    "Морозов Кирилл",
    "Волков Роман",
    "Алексеев Павел",
    "Лебедев Максим",
    "Семёнов Олег",
]


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    name = factory.Sequence(lambda n: f"{RUSSIAN_NAMES[n % len(RUSSIAN_NAMES)]} {n}")
    city = "Москва"
    club = "Луза"
    rating = factory.Sequence(lambda n: 1200 - (n % 40) * 10)


class TournamentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Tournament
        skip_postgeneration_save = True

    name = factory.Sequence(lambda n: f"Кубок клуба №{n}")
    date = factory.LazyFunction(lambda: dt.date(2026, 12, 5))
    venue = "Клуб «Луза», Москва"
    ruleset = factory.LazyFunction(lambda: {"discipline": "free_pyramid"})
    status = Tournament.Status.REGISTRATION

    @factory.post_generation
    def organisers(self, create: bool, extracted: list[object] | None, **kwargs: object) -> None:
        if create and extracted:
            self.organisers.add(*extracted)

    @factory.post_generation
    def referees(self, create: bool, extracted: list[object] | None, **kwargs: object) -> None:
        if create and extracted:
            self.referees.add(*extracted)


class RegistrationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Registration

    tournament = factory.SubFactory(TournamentFactory)
    player = factory.SubFactory(PlayerFactory)
    rating_at_entry = factory.LazyAttribute(lambda r: r.player.rating)
    fee_due = Decimal("0")
    paid = False
    # A fee made paid by the factory was collected and is kept, as the desk would record it.
    fee_paid = factory.LazyAttribute(lambda r: r.fee_due if r.paid else Decimal("0"))
    fee_collected = factory.LazyAttribute(lambda r: r.fee_due if r.paid else Decimal("0"))
