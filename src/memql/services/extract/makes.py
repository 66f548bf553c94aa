"""Car makes the English grammar knows by name, so that owning one is having a car ("I've got a 2019
Honda Civic", "we bought a Tesla") without a verb of driving. Only the makes people commonly own are
listed; an unknown make is read as before (after "drive", "drives"), never guessed."""

from __future__ import annotations

_MAKES = """
Toyota Honda Nissan Mazda Subaru Mitsubishi Lexus Acura Infiniti Suzuki Hyundai Kia Genesis Ford Chevy
Chevrolet GMC Dodge Ram Jeep Chrysler Buick Cadillac Lincoln Tesla Rivian Lucid Polestar Volvo Volkswagen VW
Audi BMW Mercedes Mercedes-Benz Porsche Mini Fiat Alfa Romeo Peugeot Renault Citroen Skoda Seat Opel
Vauxhall Jaguar Land Rover Range Rover Lotus Ferrari Lamborghini Maserati Bentley BYD
"""
# "Land Rover", "Alfa Romeo": a two-word make is one alternative, longest first
CAR_MAKES = r"(?:" + "|".join(sorted({*_MAKES.split(), "Land Rover", "Range Rover", "Alfa Romeo"},
                                      key=len, reverse=True)) + r")"  # fmt: skip
