"""Car makes the English grammar knows by name, so that owning one is having a car ("I've got a 2019
Honda Civic", "we bought a Tesla") without a verb of driving. Only the makes people commonly own are
listed; an unknown make is read as before (after "drive", "drives"), never guessed."""

from __future__ import annotations

import re

_MAKES = """
Toyota Honda Nissan Mazda Subaru Mitsubishi Lexus Acura Infiniti Suzuki Hyundai Kia Genesis Ford Chevy
Chevrolet GMC Dodge Ram Jeep Chrysler Buick Cadillac Lincoln Tesla Rivian Lucid Polestar Volvo Volkswagen VW
Audi BMW Mercedes Mercedes-Benz Porsche Mini Fiat Alfa Romeo Peugeot Renault Citroen Skoda Seat Opel
Vauxhall Jaguar Land Rover Range Rover Lotus Ferrari Lamborghini Maserati Bentley BYD
"""
# "Land Rover", "Alfa Romeo": a two-word make is one alternative, longest first
CAR_MAKES = r"(?:" + "|".join(sorted({*_MAKES.split(), "Land Rover", "Range Rover", "Alfa Romeo"},
                                      key=len, reverse=True)) + r")"  # fmt: skip
_MAKES_ZH = """
比亚迪 特斯拉 丰田 本田 日产 马自达 大众 奥迪 宝马 奔驰 别克 雪佛兰 福特 吉利 长城 哈弗 长安 奇瑞
理想 蔚来 小鹏 问界 极氪 五菱 红旗 卡罗拉 凯美瑞 思域 雅阁 帕萨特 速腾 迈腾 朗逸 宝来
沃尔沃 雷克萨斯 凯迪拉克 保时捷 路虎 林肯 领克 零跑 哪吒 岚图 腾势 智界 仰望 埃安 名爵 荣威 传祺 星越
海豹 海鸥 海豚 汉兰达 荣放 轩逸 天籁 途观 途昂 探岳 宋PLUS 秦PLUS 元PLUS 小米SU7
"""
CAR_MAKES_ZH = r"(?:" + "|".join(sorted(_MAKES_ZH.split(), key=len, reverse=True)) + r")"
# phone makes (and the common lines said without their make: "pixel 9", "galaxy s24"), both languages
_PHONES = """
iPhone Pixel Galaxy Samsung OnePlus Xiaomi Huawei Oppo Vivo Honor Motorola Nokia 小米 红米 华为 荣耀 一加 魅族
"""
PHONE_MAKES = r"(?:" + "|".join(sorted(_PHONES.split(), key=len, reverse=True)) + r")"
# car models people name without their make ("my civic won't start", "went with the cx-5"), in any case;
# models that are also words ("Golf", "Escape", "Pilot", "Accord", "Focus", "Leaf") are left out
_CAR_MODELS = """
civic corolla camry prius highlander tacoma tundra 4runner rav4 rav-4 cr-v crv hr-v odyssey cx-5 cx5 cx-30
cx-50 cx-9 cx-90 mx-5 miata mazda3 outback forester crosstrek impreza wrx f-150 f150 mustang wrangler altima
sentra elantra sonata tucson sorento sportage telluride jetta tiguan silverado equinox malibu tahoe
ioniq kona niro ev6 ev9 mach-e cybertruck
"""
_TESLAS = ("model 3", "model y", "model s", "model x")  # (a model of two words)
CAR_MODELS = (
    r"(?i:" + "|".join(sorted(map(re.escape, (*_CAR_MODELS.split(), *_TESLAS)), key=len, reverse=True)) + r")"
)
# makes that are no other word, written in lower case too ("got a used mazda cx-5", "traded in my honda")
_LOWER_MAKES = """
toyota honda nissan mazda subaru mitsubishi lexus acura hyundai kia tesla rivian volvo volkswagen audi bmw
porsche chevy chevrolet jeep
"""
LOWER_CAR_MAKES = r"\b(?i:" + "|".join(_LOWER_MAKES.split()) + r")\b"
