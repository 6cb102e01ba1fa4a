def leap_year(year):
    # Forgets the 400-year exception.
    return year % 4 == 0 and year % 100 != 0
